import ArgumentParser
import Domain
import EventBus
import Foundation
import LocalPlatform
import Logging
import Tracing
import Observability
import Majordomo
import NetworkPlatform
import ServiceLifecycle
import ServiceSupport
import Wire
import ZeroMQ

/// Registers the worker with the gateway only once its index has caught
/// up and ranks (its ranking postings hold every document: restored at the
/// start, or loaded, `RankingLoad`), so a worker never answers from a
/// partial index, and never makes a search wait for a load.
///
/// A wait longer than `report` is said in the log, and again each `report`:
/// what it still waits for, and how far the catch-up got.
struct AfterFirstCatchUp<Inner: Service>: Service {
    let sync: IndexSync
    let index: SQLiteSearchIndex
    let then: Inner
    let logger: Logger
    var report: Duration = .seconds(5)

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                let started = ContinuousClock.now
                var reportAt = started + report
                while !sync.caughtUpOnce.load(ordering: .acquiring) || !index.rankingLoaded {
                    try await Task.sleep(for: .milliseconds(50))
                    guard ContinuousClock.now >= reportAt else { continue }
                    reportAt = .now + report
                    logger.notice(
                        "not registered yet: waiting for the first catch-up and the ranking",
                        metadata: [
                            "waited": "\(started.duration(to: .now))", "caughtUp": "\(sync.caughtUpOnce.load(ordering: .acquiring))",
                            "rankingLoaded": "\(index.rankingLoaded)", "pagesPulled": "\(sync.pagesPulled.load(ordering: .relaxed))",
                            "headHeard": "\(sync.headSeen.load(ordering: .relaxed))",
                        ])
                }
            }
        } catch is CancellationError {
            return  // asked to stop before the index was ready
        }
        try await then.run()
    }
}

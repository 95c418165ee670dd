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
struct AfterFirstCatchUp<Inner: Service>: Service {
    let sync: IndexSync
    let index: SQLiteSearchIndex
    let then: Inner

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while !sync.caughtUpOnce.load(ordering: .acquiring) || !index.rankingLoaded {
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
        } catch is CancellationError {
            return  // asked to stop before the index was ready
        }
        try await then.run()
    }
}

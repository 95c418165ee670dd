import Domain
import Foundation
import LocalPlatform
@testable import SearchService
import TestSupport
import TestTraits
import Testing

/// A search worker says when it cannot pull changes, and says nothing of
/// the kind when it is only stopping: a stop cuts short the page it was
/// writing, which is rolled back and applied again at the next start.
@Suite("Index sync as a service", .ownThread, .timeLimit(.minutes(5)))
struct SyncServiceTests {
    /// A feed whose every pull fails: at once, or only once the puller is
    /// cancelled (as a pull in flight does when the worker stops).
    private struct FailingFeed: ChangeFeed {
        let onlyWhenCancelled: Bool
        let pulled: @Sendable () -> Void

        func changes(after sequence: Int64, limit: Int) async throws(PostsError) -> PostChanges {
            pulled()
            if onlyWhenCancelled { try? await Task.sleep(for: .seconds(60)) }
            throw .failed("the pull failed")
        }

        func head() async throws(PostsError) -> Int64 { 1 }
    }

    private func run(_ feed: @escaping @Sendable (@escaping @Sendable () -> Void) -> FailingFeed) async throws -> [String] {
        let log = CapturedLog()
        let (pulled, pull) = AsyncStream.makeStream(of: Void.self)
        let sync = IndexSync(index: try SQLiteSearchIndex(), feed: feed { pull.yield() })
        let service = Task { try await SyncService(sync: sync, interval: .seconds(60), logger: log.logger).run() }
        var pulls = pulled.makeAsyncIterator()
        await pulls.next()
        try await Task.sleep(for: .milliseconds(100))
        service.cancel()
        try await service.value
        return log.messages(atLeast: .warning)
    }

    @Test func test_aPullThatFails_isAWarning() async throws {
        let warnings = try await run { FailingFeed(onlyWhenCancelled: false, pulled: $0) }
        #expect(warnings == ["cannot pull changes; trying again"])
    }

    @Test func test_aPullCutShortByTheStop_isNoWarning() async throws {
        let warnings = try await run { FailingFeed(onlyWhenCancelled: true, pulled: $0) }
        #expect(warnings.isEmpty)
    }
}

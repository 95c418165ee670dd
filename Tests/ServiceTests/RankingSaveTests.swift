import Domain
import Foundation
@testable import LocalPlatform
import Logging
@testable import SearchService
import TestSupport
import TestTraits
import Testing

/// A search worker saves its ranking postings when it stops, so that the
/// next start ranks at once instead of reading every document back; and
/// while it runs, however busy, once it holds too many in memory.
@Suite("Ranking postings saved at a stop", .ownThread, .timeLimit(.minutes(5)))
struct RankingSaveTests {
    static let noLog = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    static func posts(_ numbers: ClosedRange<Int>) -> [PostChange] {
        numbers.map { number in
            PostChange(
                sequence: Int64(number), uid: UUID(),
                kind: .upsert(Post(uid: UUID(), title: "post \(number)", content: "kernel module \(number % 7) word\(number)")))
        }
    }

    @Test func test_aWorkerNeverQuiet_savesOnceItHoldsTooManyPostingsInMemory_andReadsThemInPlace() async throws {
        try await withTemporaryDirectory("ranking-save") { directory in
            let path = directory + "/index.sqlite"
            let index = try SQLiteSearchIndex(path: path, exclusive: true, postingsPath: path + ".postings")
            try await index.apply(Self.posts(1...50), position: IndexPosition(applied: 50, database: nil))
            try await index.loadRanking()
            let bound = 400
            // Never quiet for a second, and far fewer changes than `SearchRules.compactAfter`:
            // only the bound can make it save. A save not taken up (writes came while it was
            // read back, on a loaded machine) is tried again a second later, as a worker's is after its `quiet`.
            let saving = Task {
                try await RankingSave(index: index, logger: Self.noLog, quiet: .seconds(1), inMemoryBound: bound, every: .milliseconds(10)).run()
            }
            var applied = 50
            let saved = try await firstValue(within: .seconds(30), every: .milliseconds(20)) { () async throws -> Bool? in
                try await index.apply(Self.posts((applied + 1)...(applied + 5)), position: IndexPosition(applied: Int64(applied + 5), database: nil))
                applied += 5
                return index.ranker.postingsHeld.mapped > 0 ? true : nil
            }
            saving.cancel()
            _ = try await saving.value
            #expect(saved == true, "saved while changes kept coming")
            let held = index.ranker.postingsHeld
            #expect(held.inMemory < bound, "in memory only what came since the save: \(held)")
            #expect(held.inMemory == index.postingsInMemory, "counted as they come, as a pass over every term counts them")
            let found = try await index.search("kernel", limit: 1000, offset: 0)
            #expect(found.total == applied, "every post ranked, read in place or in memory")
        }
    }

    @Test func test_whenTheGroupIsTornDownInsteadOfStopped_thePostingsAreSavedAllTheSame() async throws {
        try await withTemporaryDirectory("ranking-save") { directory in
            let path = directory + "/index.sqlite"
            let index = try SQLiteSearchIndex(path: path, exclusive: true, postingsPath: path + ".postings")
            try await index.apply(Self.posts(1...50), position: IndexPosition(applied: 50, database: nil))
            try await index.loadRanking()
            #expect(try await index.savedPostingsID() == nil, "nothing saved yet")
            let saving = Task {
                try await RankingSave(index: index, logger: Self.noLog).run()
            }
            // Cancelled, as a service group cancels its services when one
            // of them fails, rather than asked to stop gracefully.
            try await Task.sleep(for: .milliseconds(50))
            saving.cancel()
            try await saving.value
            let saved = try #require(try await index.savedPostingsID(), "the postings are saved and named by the index")
            #expect(FileManager.default.fileExists(atPath: path + ".postings"), "\(saved)")
        }
    }
}

import Domain
import Foundation
@testable import LocalPlatform
import Logging
@testable import SearchService
import TestSupport
import TestTraits
import Testing

/// A search worker saves its ranking postings when it stops, so that the
/// next start ranks at once instead of reading every document back.
@Suite("Ranking postings saved at a stop", .ownThread, .timeLimit(.minutes(5)))
struct RankingSaveTests {
    @Test func test_whenTheGroupIsTornDownInsteadOfStopped_thePostingsAreSavedAllTheSame() async throws {
        try await withTemporaryDirectory("ranking-save") { directory in
            let path = directory + "/index.sqlite"
            let index = try SQLiteSearchIndex(path: path, exclusive: true, postingsPath: path + ".postings")
            let changes = (1...50).map { number in
                PostChange(
                    sequence: Int64(number), uid: UUID(),
                    kind: .upsert(Post(uid: UUID(), title: "post \(number)", content: "kernel module \(number % 7)")))
            }
            try await index.apply(changes, position: IndexPosition(applied: 50, database: nil))
            try await index.loadRanking()
            #expect(try await index.savedPostingsID() == nil, "nothing saved yet")
            let saving = Task {
                try await RankingSave(index: index, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
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

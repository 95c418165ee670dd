import Domain
import Foundation
@testable import LocalPlatform
import TestSupport
import TestTraits
import Testing

/// Processes that share an index file (`posts --local` beside a running
/// interface, one command after another): each ranks by postings in its
/// own memory, taken up from those saved beside the file when it can, and
/// follows what the others write.
@Suite("Search index files shared by processes", .ownThread, .timeLimit(.minutes(5)))
struct SharedIndexFileTests {
    private static let queries = ["kernel module", "network", "\"command line\" kernel", "signal memory thread"]

    private func opened(_ path: String) throws -> SQLiteSearchIndex {
        try SQLiteSearchIndex(path: path, postingsPath: path + "-postings")
    }

    /// Each query's page, total and scores as FTS5's own bm25 gives them over the file's documents now.
    private func expectFTS5s(_ index: SQLiteSearchIndex, _ path: String, _ label: String) async throws {
        let reference = try FTS5Reference(indexAt: path)
        for query in Self.queries {
            let found = try await index.search(query, limit: 10, offset: 0)
            let expected = try reference.page(query, limit: 10, offset: 0)
            #expect(found.hits.map(\.uid.uuidString) == expected.uids && found.hits.map(\.score) == expected.scores, "\(label): \(query)")
            #expect(found.total == expected.total && !found.hits.isEmpty, "\(label): \(query)")
        }
    }

    /// `posts import --local`: an empty file is ranked as it fills (its
    /// ranking complete from the start), and the ranking is kept beside it,
    /// so no search after builds it, in the importing process or the next.
    @Test func test_anImportIntoAnEmptyFile_isRankedAsItFills_andKeptForTheNextProcess() async throws {
        try await withDatabase { path in
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let posts = SearchRankingTests.corpus(count: 300)
            let importer = try opened(path)
            // In pages, as a catch-up applies them.
            for start in stride(from: 0, to: posts.count, by: 100) {
                let page = Array(posts[start..<(start + 100)])
                try await importer.apply(
                    SearchRankingTests.changes(page, from: Int64(start + 1)), position: IndexPosition(applied: Int64(start + 100), database: nil))
            }
            #expect(importer.rankingLoaded, "ranked as it filled")
            #expect(try await importer.savedPostingsID() == nil, "nothing kept until asked")
            try await importer.keepForNextProcess()
            #expect(try await importer.savedPostingsID() != nil && FileManager.default.fileExists(atPath: path + "-postings"))
            try await expectFTS5s(importer, path, "the importer")
            let next = try opened(path)
            try await expectFTS5s(next, path, "the next process")
            #expect(importer.rankingBuilds.load(ordering: .relaxed) == 0 && next.rankingBuilds.load(ordering: .relaxed) == 0, "never built")
        }
    }

    @Test func test_aProcessTakesUpThePostingsAnotherSaved_andEachFollowsWhatTheOtherWrites() async throws {
        try await withDatabase { path in
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            var posts = SearchRankingTests.corpus(count: 300)
            // An import: writes, and no search.
            try await opened(path).apply(SearchRankingTests.changes(posts), position: IndexPosition(applied: 300, database: nil))
            // The first search of the next process builds the ranking, and saves it.
            let second = try opened(path)
            try await expectFTS5s(second, path, "built")
            #expect(second.rankingBuilds.load(ordering: .relaxed) == 1)
            #expect(try await second.savedPostingsID() != nil && FileManager.default.fileExists(atPath: path + "-postings"))
            // The next takes them up instead.
            let third = try opened(path)
            try await expectFTS5s(third, path, "taken up")
            #expect(third.rankingBuilds.load(ordering: .relaxed) == 0, "taken up, not built")
            // One edits and deletes; the other follows, and so does one that takes up the saved postings after.
            for position in posts.indices where position % 4 == 0 { posts[position].content = "network kernel module, edited" }
            var edits = SearchRankingTests.changes(posts.enumerated().filter { $0.offset % 4 == 0 }.map(\.element), from: 301)
            for position in posts.indices where position % 7 == 3 {
                edits.append(PostChange(sequence: 301 + Int64(edits.count), uid: posts[position].uid, kind: .delete))
            }
            try await third.apply(edits, position: IndexPosition(applied: edits.last!.sequence, database: nil))
            // The second writes before it searches again: its ranking was behind the third's writes until then.
            let more = SearchRankingTests.corpus(count: 20)
            try await second.apply(SearchRankingTests.changes(more, from: 1_000), position: IndexPosition(applied: 1_019, database: nil))
            try await expectFTS5s(second, path, "written while behind")
            try await expectFTS5s(third, path, "the other's write followed")
            try await expectFTS5s(try opened(path), path, "taken up, then followed")
            #expect(second.rankingBuilds.load(ordering: .relaxed) == 1 && third.rankingBuilds.load(ordering: .relaxed) == 0)
        }
    }
}

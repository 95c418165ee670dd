import Domain
import Foundation
import GRDB
@testable import LocalPlatform
import Testing

/// The index ranks with its own function (`posts_rank`); these tests hold
/// it to FTS5's own bm25 on the same file: the same hits on every page, in
/// the same order, with the same scores, and the exact number of matches.
@Suite("Search ranking agrees with FTS5's bm25")
struct SearchRankingTests {
    private static let vocabulary = [
        "kernel", "module", "socket", "signal", "memory", "network", "process", "thread",
        "file", "files", "filesystem", "zone", "format", "output", "error", "command", "line",
    ]
    private static let queries = ["file", "fil", "kernel module", "\"command line\"", "network", "zone fi", "out", "signal memory thread"]

    /// Posts of very different lengths (up to 20,000 words, so FTS5 stores
    /// some lengths in two and three bytes), the same few words throughout;
    /// the longest mostly a filler word, as a snippet of a word found
    /// thousands of times in one post takes long to choose.
    static func corpus(count: Int) -> [Post] {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        func words(_ count: Int, filler: Int = 0) -> String {
            (0..<count).map { _ in next(filler + 1) == 0 ? vocabulary[next(vocabulary.count)] : "lorem" }.joined(separator: " ")
        }
        return (0..<count).map { index in
            let content = index % 97 == 0 ? words(20_000, filler: 400) : index % 13 == 0 ? words(300, filler: 3) : words(1 + next(60))
            return Post(title: words(1 + next(4)), content: content)
        }
    }

    /// Each post saved, in turn, from sequence `sequence` (these tests' and `SavedRankingTests`').
    static func changes(_ posts: [Post], from sequence: Int64 = 1) -> [PostChange] {
        posts.enumerated().map { PostChange(sequence: sequence + Int64($0.offset), uid: $0.element.uid, kind: .upsert($0.element)) }
    }

    /// An index in a file at `path` (its directory made) holding `posts`.
    private func indexed(_ posts: [Post], at path: String) async throws -> FTS5SearchIndex {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let index = try FTS5SearchIndex(path: path)
        try await index.apply(Self.changes(posts), position: IndexPosition(applied: Int64(posts.count), database: nil))
        return index
    }

    /// What FTS5's bm25 makes of `query`: the page's (uid, score) and the number of matches.
    private func reference(_ database: DatabaseQueue, _ query: String, limit: Int, offset: Int) throws -> ([String], [Double], Int) {
        let terms = SearchQuery.terms(in: query)
        return try database.read { db in
            let match = SearchQuery.expression(for: terms, completions: try FTS5SearchIndex.completions(of: terms.last!, db))
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT document.uid, hits.score FROM (
                        SELECT rowid, -bm25(document_fts, 10.0, 1.0) AS score FROM document_fts WHERE document_fts MATCH ?
                        ORDER BY score DESC, rowid LIMIT ? OFFSET ?
                    ) AS hits JOIN document ON document.rowid = hits.rowid ORDER BY hits.score DESC, hits.rowid
                    """, arguments: [match, limit, offset])
            let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM document_fts WHERE document_fts MATCH ?", arguments: [match]) ?? 0
            return (rows.map { ($0[0] as UUID).uuidString }, rows.map { $0[1] }, total)
        }
    }

    private func expectAgreement(
        _ index: FTS5SearchIndex, _ path: String, _ label: String, queries: [String] = Self.queries
    ) async throws {
        let database = try DatabaseQueue(path: path)
        for query in queries {
            for (limit, offset) in [(10, 0), (10, 10), (7, 45), (500, 0)] {
                let results = try await index.search(query, limit: limit, offset: offset)
                let (uids, scores, total) = try reference(database, query, limit: limit, offset: offset)
                #expect(results.hits.map(\.uid.uuidString) == uids, "\(label): \(query) at \(offset)")
                #expect(results.hits.map(\.score) == scores, "\(label): \(query) at \(offset)")
                #expect(results.total == total && results.totalIsExact, "\(label): \(query)")
                #expect(results.hits.allSatisfy { !$0.highlights.isEmpty }, "\(label): every hit has its snippet")
            }
        }
    }

    @Test func test_everyPageHasFTS5sHits_inItsOrder_withItsScores_andTheExactTotal() async throws {
        try await withDatabase { path in
            let index = try await indexed(Self.corpus(count: 400), at: path)
            try await expectAgreement(index, path, "built")
        }
    }

    /// Every third post edited (the longest made short, `short`, and the
    /// short long, ending in `long`), then every fifth deleted: the changes
    /// after the posts' own, in order.
    private func editsAndDeletes(_ posts: inout [Post], short: String, long: String) -> [PostChange] {
        for position in posts.indices where position % 3 == 0 {
            posts[position].content = position % 97 == 0 ? short : String(repeating: "lorem ", count: 400) + long
        }
        var sequence = Int64(posts.count) + 1
        var edits = Self.changes(posts.enumerated().filter { $0.offset % 3 == 0 }.map(\.element), from: sequence)
        sequence += Int64(edits.count)
        for position in posts.indices where position % 5 == 1 {
            edits.append(PostChange(sequence: sequence, uid: posts[position].uid, kind: .delete))
            sequence += 1
        }
        return edits
    }

    @Test func test_afterEditsThatChangeLengths_andDeletes_andOnReopening_theRankingStillAgrees() async throws {
        try await withDatabase { path in
            var posts = Self.corpus(count: 300)
            let index = try await indexed(posts, at: path)
            _ = try await index.search("file", limit: 10, offset: 0)
            // The longest become short and the short long; every fifth goes.
            let edits = editsAndDeletes(&posts, short: "file", long: "file zone")
            try await index.apply(edits, position: IndexPosition(applied: edits.last!.sequence, database: nil))
            try await expectAgreement(index, path, "edited")
            try await expectAgreement(try FTS5SearchIndex(path: path), path, "reopened")
        }
    }

    /// Queries whose unfinished last word has one stem to complete to: the
    /// ranking postings score it as FTS5 scores the prefix, so the page is
    /// FTS5's to the bit (a prefix of several stems may differ: ImpactQuery).
    private static let oneCompletion = ["kernel module", "network", "signal memory thread", "zone", "out", "kernel"]
    /// Queries of one phrase, which the ranking postings rank too (`ImpactPhrase`).
    private static let phrases = ["\"command line\"", "\"lorem kernel\"", "\"lorem lorem lorem\"", "\"file\" zone"]

    @Test func test_withTheRankingLoadedWhileEditsAndDeletesGoOn_everyPageIsStillFTS5s() async throws {
        try await withDatabase { path in
            var posts = Self.corpus(count: 300)
            let index = try await indexed(posts, at: path)
            let edits = editsAndDeletes(&posts, short: "kernel", long: "network zone")
            // Loaded a few documents at a time while the edits are applied page by page.
            let pages = stride(from: 0, to: edits.count, by: 9).map { Array(edits[$0..<min($0 + 9, edits.count)]) }
            async let loaded = index.loadRanking(pageSize: 7)
            for page in pages { try await index.apply(page, position: IndexPosition(applied: page.last!.sequence, database: nil)) }
            #expect(try await loaded > 0)
            #expect(index.rankingLoaded)
            try await expectAgreement(index, path, "loaded while edited", queries: Self.oneCompletion + Self.phrases)
            let reopened = try FTS5SearchIndex(path: path)
            try await reopened.loadRanking()
            try await expectAgreement(reopened, path, "reopened and loaded", queries: Self.oneCompletion + Self.phrases)
            // The snippets too: where each hit matched, as FTS5 finds it.
            let unloaded = try FTS5SearchIndex(path: path)
            for query in Self.oneCompletion + Self.phrases {
                let ranked = try await reopened.search(query, limit: 20, offset: 0).hits
                let everyMatch = try await unloaded.search(query, limit: 20, offset: 0).hits
                #expect(ranked.map(\.snippet) == everyMatch.map(\.snippet) && ranked.map(\.highlights) == everyMatch.map(\.highlights), "\(query)")
            }
        }
    }

    @Test func test_withTheRankingLoaded_anUnfinishedWordOfManyCompletions_findsPostsWithOne_highlighted() async throws {
        let index = try FTS5SearchIndex()
        let posts = Self.corpus(count: 300)
        try await index.apply(Self.changes(posts), position: IndexPosition(applied: Int64(posts.count), database: nil))
        try await index.loadRanking()
        let results = try await index.search("kernel fil", limit: 20, offset: 0)
        #expect(!results.hits.isEmpty)
        for hit in results.hits {
            let post = try #require(posts.first { $0.uid == hit.uid })
            let words = (post.title + " " + post.content).split(separator: " ")
            #expect(words.contains("kernel") && words.contains { $0.hasPrefix("fil") })
            #expect(!hit.highlights.isEmpty)
        }
        #expect(
            results.totalIsExact
                && results.total
                    == posts.filter { post in
                        let words = (post.title + " " + post.content).split(separator: " ")
                        return words.contains("kernel") && words.contains { $0.hasPrefix("fil") }
                    }.count
        )
    }

    @Test func test_theRankingFunctionWithoutItsRequest_failsTheQuery_namingWhy() async throws {
        try await withDatabase { path in
            _ = try await indexed(Self.corpus(count: 3), at: path)
            var configuration = Configuration()
            configuration.prepareDatabase { db in try FTS5Ranking.register(db) }
            let database = try DatabaseQueue(path: path, configuration: configuration)
            var failure: DatabaseError?
            do {
                _ = try database.read { db in
                    try Row.fetchAll(db, sql: "SELECT posts_rank(document_fts, NULL) FROM document_fts WHERE document_fts MATCH 'lorem'")
                }
            } catch {
                failure = error as? DatabaseError
            }
            #expect(failure?.message?.contains("was called without its request") == true)
        }
    }

    @Test func test_aLengthIsReadAsFTS5WritesIt() {
        #expect(DocumentLengths.total(of: Data([0x05, 0x7F])) == 132, "one byte per column")
        #expect(DocumentLengths.total(of: Data([0x81, 0x00, 0x02])) == 130, "128 takes two bytes")
        #expect(DocumentLengths.total(of: Data([0x81, 0x9C, 0x20, 0x00])) == 20_000, "20,000 takes three")
    }
}

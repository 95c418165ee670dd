import Domain
import Foundation
import GRDB
@testable import LocalPlatform
import Testing

/// An unfinished last word also stands for the whole words starting with
/// it, when no more than `SearchRules.maxCompletions` do.
@Suite("Completions of an unfinished word")
struct CompletionsTests {
    @Test func test_theCapCountsTheOtherWords_evenWhenThePrefixIsAWordItself() async throws {
        try await withDatabase { path in
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let cap = SearchRules.maxCompletions
            let texts = [
                "running runnings",
                "alpha " + (1...cap + 1).map { "alpha\($0)" }.joined(separator: " "),
                "beta " + (1...cap).map { "beta\($0)" }.joined(separator: " "),
                "stra straße strb",
            ]
            let posts = texts.map { Post(title: "t", content: $0) }
            let index = try FTS5SearchIndex(path: path)
            try await index.apply(
                posts.enumerated().map { PostChange(sequence: Int64($0.offset + 1), uid: $0.element.uid, kind: .upsert($0.element)) },
                position: IndexPosition(applied: Int64(posts.count), database: nil))
            let database = try DatabaseQueue(path: path)
            func completions(_ word: String) throws -> [String] {
                try database.read { db in try FTS5SearchIndex.completions(of: SearchQuery.Term(words: [word], isPhrase: false), db) }
            }
            func candidates(_ word: String) throws -> [String] {
                try database.read { db in try FTS5SearchIndex.candidates(of: word, db) }
            }
            #expect(try completions("runni") == ["running", "runnings"])
            #expect(try candidates("alpha").isEmpty, "\(cap + 1) other words start with alpha: too many")
            #expect(try candidates("beta") == (1...cap).map { "beta\($0)" }.sorted(), "\(cap) is not too many")
            #expect(try completions("beta").isEmpty, "the prefix beta already matches each of them")
            #expect(try candidates("stra") == ["straße"], "a word going on past ASCII, and not the prefix itself")
            #expect(try await index.search("beta", limit: 10, offset: 0).total == 1)
        }
    }
}

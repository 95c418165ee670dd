import Domain
import Foundation
import LocalPlatform
import TestSupport
import TestTraits
import Testing

/// `posts search --local`: an index kept beside the file, brought up to
/// date by Domain's IndexSync before each search.
@Suite("Search on a SQLite file", .ownThread, .timeLimit(.minutes(5)))
struct LocalSearchTests {
    private func titles(_ provider: UseCaseProvider, _ query: String) async throws -> [String] {
        try await provider.makeSearchUseCase().search(query, limit: 50, offset: nil).hits.map(\.title).sorted()
    }

    @Test func test_aSearchFindsWhatAnotherConnectionWrote_withItsIndexOwnerOnlyBesideTheFile() async throws {
        try await withDatabase { path in
            let reader = try openLocal(path)
            let writer = try openLocal(path)
            #expect(try await titles(reader, "zebra").isEmpty)
            _ = try await writer.makePostsUseCase().save(.stub(title: "A zebra"), key: nil)
            #expect(try await titles(reader, "zebra") == ["A zebra"])
            // The index and its log, made whatever the umask (these tests run with the usual 022).
            let index = LocalPlatform.searchIndexPath(for: path)
            for file in [index, index + "-wal", index + "-shm"] {
                let attributes = try FileManager.default.attributesOfItem(atPath: file)
                #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(file)")
            }
        }
    }

    @Test func test_theIndexIsKeptBetweenRuns_soOnlyNewWritesAreIndexed() async throws {
        try await withDatabase { path in
            let first = try openLocal(path)
            _ = try await first.makePostsUseCase().save(batch: (0..<3).map { Post.stub(title: "kept \($0)") }, key: nil)
            #expect(try await titles(first, "kept").count == 3)
            let again = try openLocal(path)
            let head = try await again.makePostChangesUseCase().head()
            #expect(try await again.platform.searchSync?.index.position().applied == head, "nothing to index again")
            _ = try await again.makePostsUseCase().save(.stub(title: "kept new"), key: nil)
            #expect(try await titles(again, "kept").count == 4)
        }
    }

    @Test func test_aFileMadeAnewIsNoticed_andTheIndexRebuilt() async throws {
        try await withDatabase { path in
            let old = try openLocal(path)
            _ = try await old.makePostsUseCase().save(batch: (0..<5).map { Post.stub(title: "old \($0)") }, key: nil)
            #expect(try await titles(old, "old").count == 5)
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            let fresh = try openLocal(path)
            _ = try await fresh.makePostsUseCase().save(batch: (0..<7).map { Post.stub(title: "fresh \($0)") }, key: nil)
            #expect(try await titles(fresh, "old").isEmpty, "the old file's posts are gone from the index")
            #expect(try await titles(fresh, "fresh").count == 7, "every post of the new file, the first ones too")
        }
    }
}

import Domain
import Foundation
import Testing

/// Writes sent again under their request key (a lost answer, a gateway
/// that died) are applied once and answered as the first attempt was, on
/// every platform: through the services the key travels in
/// `params._meta.requestKey` and posts-service's store remembers it.
@Suite("Request key contract", .timeLimit(.minutes(5)))
struct RequestKeyContractTests {
    static func keyed<T: Sendable>(_ key: String, _ body: () async throws -> T) async throws -> T {
        try await RequestKey.$current.withValue(try RequestKey(key)) { try await body() }
    }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_aSaveSentAgainUnderItsKey_isAppliedOnce_andAnsweredAsTheFirstTime(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            let posts = provider.makePostsUseCase()
            let changes = provider.makePostChangesUseCase()
            let post = Post.stub(title: "once")
            let first = try await Self.keyed("save-1") { try await posts.save(post) }
            let head = try await changes.head()
            try await Task.sleep(for: .milliseconds(5))
            let again = try await Self.keyed("save-1") { try await posts.save(post) }
            #expect(again == first)
            #expect(try await changes.head() == head, "the second attempt took a change sequence: it was applied again")
            #expect(try await posts.post(uid: post.uid).updateDate == first.updateDate)
        }
    }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_anEditIfUnchangedSentAgain_getsItsFirstAnswer_notAConflictWithItself(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            let posts = provider.makePostsUseCase()
            let read = try await posts.save(.stub(title: "before"))
            let edited = try await Self.keyed("edit-1") { try await posts.edit(read, title: "after", content: nil) }
            let again = try await Self.keyed("edit-1") { try await posts.edit(read, title: "after", content: nil) }
            #expect(again == edited)
            // Without the key, the same edit is a conflict: the first one changed the post.
            await #expect(throws: PostsError.conflict(uid: read.uid)) { _ = try await posts.edit(read, title: "after", content: nil) }
        }
    }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_aDeleteSentAgain_saysDeleted_andABatchSentAgain_isNotStampedAgain(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            let posts = provider.makePostsUseCase()
            let changes = provider.makePostChangesUseCase()
            let saved = try await posts.save(.stub(title: "doomed"))
            #expect(try await Self.keyed("delete-1") { try await posts.delete(uid: saved.uid) })
            #expect(try await Self.keyed("delete-1") { try await posts.delete(uid: saved.uid) }, "a retried delete said 'no such post'")
            #expect(try await posts.delete(uid: saved.uid) == false)

            let batch = (0..<3).map { Post.stub(title: "b\($0)") }
            #expect(try await Self.keyed("batch-1") { try await posts.save(batch: batch) } == 3)
            let head = try await changes.head()
            #expect(try await Self.keyed("batch-1") { try await posts.save(batch: batch) } == 3)
            #expect(try await changes.head() == head)
        }
    }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_aKeyUsedForAnotherWrite_isRefused_andAFailedWriteIsNotRemembered(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            let posts = provider.makePostsUseCase()
            let stale = try await posts.save(.stub(title: "v1"))
            _ = try await posts.save(stale)
            // Under "k": a conflict, not remembered; then a write that succeeds takes the key.
            await #expect(throws: PostsError.conflict(uid: stale.uid)) {
                try await Self.keyed("k") { try await posts.save(stale, ifUnchangedSince: stale.updateDate) }
            }
            _ = try await Self.keyed("k") { try await posts.save(stale) }
            do {
                _ = try await Self.keyed("k") { try await posts.delete(uid: stale.uid) }
                Issue.record("a key used for a save was taken again for a delete")
            } catch let error as PostsError {
                guard case .invalid(let invalid) = error else { throw error }
                #expect(invalid.field.hasSuffix("_meta.requestKey"))
                #expect(invalid.rule.contains("already used for another write"))
            }
            #expect(try await posts.post(uid: stale.uid).title == "v1", "the refused delete deleted")
        }
    }
}

import Domain
import Foundation
import Testing

/// Writes sent again under their request key (a lost answer, a gateway
/// that died) are applied once and answered as the first attempt was, on
/// every platform: the key is a parameter of every write; through the
/// services it travels in `params._meta.requestKey` and posts-service's
/// store remembers it.
@Suite("Request key contract", .timeLimit(.minutes(5)))
struct RequestKeyContractTests {
    static func key(_ text: String) throws -> RequestKey { try RequestKey(text) }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_aSaveSentAgainUnderItsKey_isAppliedOnce_andAnsweredAsTheFirstTime(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            let posts = provider.makePostsUseCase()
            let changes = provider.makePostChangesUseCase()
            let post = Post.stub(title: "once")
            let first = try await posts.save(post, key: Self.key("save-1"))
            let head = try await changes.head()
            try await Task.sleep(for: .milliseconds(5))
            let again = try await posts.save(post, key: Self.key("save-1"))
            #expect(again == first)
            #expect(try await changes.head() == head, "the second attempt took a change sequence: it was applied again")
            #expect(try await posts.post(uid: post.uid).updateDate == first.updateDate)
        }
    }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_anEditIfUnchangedSentAgain_getsItsFirstAnswer_notAConflictWithItself(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            let posts = provider.makePostsUseCase()
            let read = try await posts.save(.stub(title: "before"), key: nil)
            let edited = try await posts.edit(read, title: "after", content: nil, key: Self.key("edit-1"))
            let again = try await posts.edit(read, title: "after", content: nil, key: Self.key("edit-1"))
            #expect(again == edited)
            // Without the key, the same edit is a conflict: the first one changed the post.
            await #expect(throws: PostsError.conflict(uid: read.uid)) { _ = try await posts.edit(read, title: "after", content: nil, key: nil) }
        }
    }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_aDeleteSentAgain_saysDeleted_andABatchSentAgain_isNotStampedAgain(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            let posts = provider.makePostsUseCase()
            let changes = provider.makePostChangesUseCase()
            let saved = try await posts.save(.stub(title: "doomed"), key: nil)
            #expect(try await posts.delete(uid: saved.uid, key: Self.key("delete-1")))
            #expect(try await posts.delete(uid: saved.uid, key: Self.key("delete-1")), "a retried delete said 'no such post'")
            #expect(try await posts.delete(uid: saved.uid, key: nil) == false)

            let batch = (0..<3).map { Post.stub(title: "b\($0)") }
            #expect(try await posts.save(batch: batch, key: Self.key("batch-1")) == 3)
            let head = try await changes.head()
            #expect(try await posts.save(batch: batch, key: Self.key("batch-1")) == 3)
            #expect(try await changes.head() == head)
        }
    }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_aKeyUsedForAnotherWrite_isRefused_andAFailedWriteIsNotRemembered(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            let posts = provider.makePostsUseCase()
            let stale = try await posts.save(.stub(title: "v1"), key: nil)
            _ = try await posts.save(stale, key: nil)
            // Under "k": a conflict, not remembered; then a write that succeeds takes the key.
            await #expect(throws: PostsError.conflict(uid: stale.uid)) {
                try await posts.save(stale, ifUnchangedSince: stale.updateDate, key: Self.key("k"))
            }
            _ = try await posts.save(stale, key: Self.key("k"))
            do {
                _ = try await posts.delete(uid: stale.uid, key: Self.key("k"))
                Issue.record("a key used for a save was taken again for a delete")
            } catch let error as PostsError {
                guard case .invalid(let invalid) = error else { throw error }
                // Domain names no wire field: the same error on every platform.
                #expect(invalid.field == RequestKey.field)
                #expect(invalid.rule.contains("already used for another write"))
            }
            #expect(try await posts.post(uid: stale.uid).title == "v1", "the refused delete deleted")
        }
    }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_theSameKeyWithOtherContent_isRefused_andAKeysDerivedUIDMakesACreateSentAgainOnePost(_ platform: ContractPlatform) async throws
    {
        try await platform.run { provider async throws in
            let posts = provider.makePostsUseCase()
            let key = try Self.key("create-1")
            let first = try await posts.save(Post(uid: key.derivedUID, title: "once", content: "body"), key: key)
            try await Task.sleep(for: .milliseconds(5))
            // Sent again later: a new createDate of its own, the same post.
            let again = try await posts.save(Post(uid: key.derivedUID, title: "once", content: "body"), key: key)
            #expect(again == first)
            #expect(try await posts.count() == 1)
            await #expect(throws: PostsError.self, "other content under a used key was applied") {
                _ = try await posts.save(Post(uid: key.derivedUID, title: "once", content: "another body"), key: key)
            }
            #expect(try await posts.post(uid: first.uid).content == "body")
        }
    }
}

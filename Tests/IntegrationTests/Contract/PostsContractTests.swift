import Domain
import Foundation
import Testing

/// The posts use cases, stated once and run on every platform: what a
/// person gets is the same on a SQLite file and through the services.
@Suite("Posts use-case contract", .timeLimit(.minutes(5)))
struct PostsContractTests {
    @Test(arguments: ContractPlatform.allCases)
    func test_contract_aSavedPostReadsBackAsStored_withItsTitleTrimmed(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            let posts = provider.makePostsUseCase()
            let saved = try await posts.save(.stub(title: "  Hello  "), key: nil)
            #expect(saved.title == "Hello")
            #expect(try await posts.post(uid: saved.uid) == saved)
        }
    }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_savingTheSameUIDAgainUpdates_keepingTheCreateDate(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            let posts = provider.makePostsUseCase()
            let first = try await posts.save(.stub(title: "v1", created: 1_000), key: nil)
            var edited = first
            (edited.title, edited.createDate) = ("v2", Date(timeIntervalSince1970: 5_000))
            try await Task.sleep(for: .milliseconds(5))
            let second = try await posts.save(edited, key: nil)
            #expect(second.createDate == first.createDate)
            #expect(second.updateDate > first.updateDate)
            #expect(try await allPages(posts, limit: 10).flatMap { $0 }.map(\.title) == ["v2"])
        }
    }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_pagesAreNewestFirst_complete_andAPostAddedMeanwhileShiftsNothing(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            let posts = provider.makePostsUseCase()
            // Five share one create date, so the uid must break the tie.
            var saved: [Post] = []
            for index in 0..<25 { saved.append(try await posts.save(.stub(title: "p\(index)", created: Double(1_000 + min(index, 20))), key: nil)) }
            let first = try await posts.posts(limit: 10, cursor: nil)
            _ = try await posts.save(.stub(title: "newest", created: 9_999), key: nil)
            var walked = first.posts
            var cursor = first.nextCursor
            while let next = cursor {
                let page = try await posts.posts(limit: 10, cursor: next)
                walked += page.posts
                cursor = page.nextCursor
            }
            #expect(walked.count == 25 && Set(walked.map(\.uid)) == Set(saved.map(\.uid)))
            #expect(zip(walked, walked.dropFirst()).allSatisfy { $0.createDate >= $1.createDate })
        }
    }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_aCursorTheStoreNeverGave_orABadLimit_isRefusedNamingIt(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            let posts = provider.makePostsUseCase()
            #expect(await postsError { _ = try await posts.posts(limit: 10, cursor: "page-2") } == .invalid("cursor", .unknownCursor("page-2")))
            #expect(
                await postsError { _ = try await posts.posts(limit: 501, cursor: nil) }
                    == .invalid("limit", .outOfRange(min: 1, max: 500, actual: "501")))
        }
    }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_deletingSaysWhetherThereWasOne_andThenItIsNotFound(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            let posts = provider.makePostsUseCase()
            let saved = try await posts.save(.stub(), key: nil)
            #expect(try await posts.delete(uid: saved.uid, key: nil))
            #expect(try await !posts.delete(uid: saved.uid, key: nil))
            #expect(await postsError { _ = try await posts.post(uid: saved.uid) } == .notFound(uid: saved.uid))
        }
    }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_aDeleteOfWhatWasRead_deletesNothingChangedOrGoneSince(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            let posts = provider.makePostsUseCase()
            let read = try await posts.save(.stub(title: "as read"), key: nil)
            try await Task.sleep(for: .milliseconds(5))
            let changed = try await posts.edit(read, title: "changed since", content: nil, key: nil)
            #expect(
                await postsError { try await posts.delete(uid: read.uid, ifUnchangedSince: read.updateDate, key: nil) } == .conflict(uid: read.uid))
            #expect(try await posts.post(uid: read.uid).title == "changed since", "a stale read deleted nothing")
            try await posts.delete(uid: read.uid, ifUnchangedSince: changed.updateDate, key: nil)
            #expect(await postsError { _ = try await posts.post(uid: read.uid) } == .notFound(uid: read.uid))
            #expect(
                await postsError { try await posts.delete(uid: read.uid, ifUnchangedSince: changed.updateDate, key: nil) }
                    == .conflict(uid: read.uid),
                "a post that is gone is not the one read")
        }
    }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_anInvalidPostInABatch_savesNone_andNamesIt_whileAUIDGivenTwiceIsOnePost(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            let posts = provider.makePostsUseCase()
            #expect(
                await postsError { _ = try await posts.save(batch: [.stub(), .stub(title: " "), .stub()], key: nil) }
                    == .invalid("posts[1].title", .empty))
            #expect(try await posts.posts(limit: 10, cursor: nil).posts.isEmpty)
            let twice = Post.stub(title: "first")
            var later = twice
            later.title = "second"
            #expect(try await posts.save(batch: [twice, .stub(), later], key: nil) == 2, "saved counts distinct posts")
            #expect(try await posts.post(uid: twice.uid).title == "second", "the later entry wins")
        }
    }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_anEditSavesOverWhatWasRead_butNeverOverAChangeOrDeleteMadeSince(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            let posts = provider.makePostsUseCase()
            let read = try await posts.save(.stub(title: "First", content: "kept"), key: nil)
            let mine = try await posts.edit(read, title: "Mine", content: nil, key: nil)
            #expect(mine.title == "Mine" && mine.content == "kept")
            var theirs = mine
            theirs.title = "Theirs"
            _ = try await posts.save(theirs, key: nil)  // someone else, meanwhile
            #expect(await postsError { _ = try await posts.edit(mine, title: "Mine again", content: nil, key: nil) } == .conflict(uid: mine.uid))
            #expect(try await posts.post(uid: mine.uid).title == "Theirs", "their edit is not overwritten")
            _ = try await posts.delete(uid: mine.uid, key: nil)
            #expect(
                await postsError { _ = try await posts.edit(mine, title: "Back", content: nil, key: nil) } == .conflict(uid: mine.uid),
                "a deleted post is not brought back")
        }
    }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_aCharacterTheStoreCannotKeep_isRefusedNamingTheField_neverCut(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            let posts = provider.makePostsUseCase()
            #expect(
                await postsError { _ = try await posts.save(.stub(title: "before\u{0}after"), key: nil) } == .invalid("title", .forbiddenCharacter(0))
            )
            #expect(await postsError { _ = try await posts.save(.stub(content: "a\u{0}b"), key: nil) } == .invalid("content", .forbiddenCharacter(0)))
            #expect(try await posts.posts(limit: 10, cursor: nil).posts.isEmpty)
        }
    }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_datesKeepTheirMillisecondsAcrossTheWholeRange_andOutsideItAreRefused(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            let posts = provider.makePostsUseCase()
            for text in [PostDate.latestText, PostDate.earliestText, "2026-11-23T10:20:30.123Z", "1969-12-31T23:59:59.001Z"] {
                let created = try PostDate.parse(text, field: "test")
                let saved = try await posts.save(Post(title: text, content: "", createDate: created), key: nil)
                #expect(PostDate.format(try await posts.post(uid: saved.uid).createDate) == text)
            }
            let tooLate = Date(timeIntervalSince1970: Double(PostDate.latest + 1) / 1000)
            #expect(
                await postsError { _ = try await posts.save(Post(title: "late", content: "", createDate: tooLate), key: nil) }
                    == .invalid("createDate", .dateOutOfRange("+10000-01-01T00:00:00.000Z")))
        }
    }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_everyWriteIsInTheChangeFeed_inOrder_withTombstones(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            let posts = provider.makePostsUseCase()
            let changes = provider.makePostChangesUseCase()
            let start = try await changes.head()
            let one = try await posts.save(.stub(title: "one"), key: nil)
            let two = try await posts.save(.stub(title: "two"), key: nil)
            _ = try await posts.delete(uid: one.uid, key: nil)
            let page = try await changes.changes(after: start, limit: 10)
            #expect(page.changes.map(\.uid) == [two.uid, one.uid])
            #expect(page.changes.last?.kind == .delete)
            #expect(page.head == start + 3 && page.changes.map(\.sequence) == [start + 2, start + 3])
            #expect(
                await postsError { _ = try await changes.changes(after: -1, limit: 10) }
                    == .invalid("after", .outOfRange(min: 0, max: Int64.max, actual: "-1")))
        }
    }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_theCountFollowsSavesAndDeletes(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            let posts = provider.makePostsUseCase()
            let before = try await posts.count()
            let saved = try await posts.save(.stub(), key: nil)
            _ = try await posts.save(saved, key: nil)  // saved again: still one post
            _ = try await posts.save(.stub(), key: nil)
            #expect(try await posts.count() == before + 2)
            #expect(try await posts.delete(uid: saved.uid, key: nil))
            #expect(try await posts.count() == before + 1)
        }
    }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_theHeadAfterAWrite_isAtLeastThatWritesSequence(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            let (posts, changes) = (provider.makePostsUseCase(), provider.makePostChangesUseCase())
            let saved = try await posts.save(.stub(title: "a"), key: nil)
            #expect(try await changes.headAfterWrite() == changes.head())
            _ = try await posts.save(batch: [.stub(title: "b"), .stub(title: "c")], key: nil)
            #expect(try await changes.headAfterWrite() == changes.head())
            _ = try await posts.delete(uid: saved.uid, key: nil)
            let head = try await changes.head()
            #expect(try await changes.headAfterWrite() == head)
            #expect(try await changes.changes(after: head - 1, limit: 10).changes.map(\.uid) == [saved.uid], "the delete is the head")
            // A write that fails (a conflict) takes nothing: the head stays.
            await #expect(throws: PostsError.self) {
                _ = try await posts.save(.stub(title: "x"), ifUnchangedSince: Date(timeIntervalSince1970: 1), key: nil)
            }
            #expect(try await changes.headAfterWrite() == head)
        }
    }
}

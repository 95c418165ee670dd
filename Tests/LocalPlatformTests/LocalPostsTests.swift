import Domain
import Foundation
import GRDB
import LocalPlatform
import Testing

@Suite("Posts on a SQLite file")
struct LocalPostsTests {
    @Test func test_aSavedPostCanBeReadBack_withItsTitleTrimmed() async throws {
        try await withDatabase { path in
            let posts = try LocalUseCaseProvider(path: path).makePostsUseCase()
            let saved = try await posts.save(.stub(title: "  Hello  "))
            let read = try await posts.post(uid: saved.uid)
            #expect(read.title == "Hello")
            #expect(read == saved)
        }
    }

    @Test func test_savingTheSameUIDAgainUpdates_keepingTheCreateDate() async throws {
        try await withDatabase { path in
            let posts = try LocalUseCaseProvider(path: path).makePostsUseCase()
            let first = try await posts.save(.stub(title: "v1", created: 1_000))
            var edited = first
            edited.title = "v2"
            edited.createDate = Date(timeIntervalSince1970: 5_000)
            try await Task.sleep(for: .milliseconds(5))
            let second = try await posts.save(edited)
            #expect(second.createDate == first.createDate)
            #expect(second.updateDate > first.updateDate)
            let all = try await allPages(posts, limit: 10).flatMap { $0 }
            #expect(all.map(\.title) == ["v2"])
        }
    }

    @Test func test_pagesAreNewestFirst_completeAndWithoutRepeats() async throws {
        try await withDatabase { path in
            let posts = try LocalUseCaseProvider(path: path).makePostsUseCase()
            // Five share one create date, so the uid must break the tie.
            var saved: [Post] = []
            for index in 0..<25 { saved.append(try await posts.save(.stub(title: "p\(index)", created: Double(1_000 + min(index, 20))))) }
            let pages = try await allPages(posts, limit: 10)
            #expect(pages.map(\.count) == [10, 10, 5])
            let walked = pages.flatMap { $0 }
            #expect(Set(walked.map(\.uid)) == Set(saved.map(\.uid)))
            #expect(walked.count == 25)
            #expect(zip(walked, walked.dropFirst()).allSatisfy { $0.createDate >= $1.createDate })
        }
    }

    @Test func test_aPostAddedWhilePaging_neverShiftsTheRemainingPages() async throws {
        try await withDatabase { path in
            let posts = try LocalUseCaseProvider(path: path).makePostsUseCase()
            for index in 0..<6 { _ = try await posts.save(.stub(title: "old\(index)", created: Double(100 + index))) }
            let first = try await posts.posts(limit: 3, cursor: nil)
            _ = try await posts.save(.stub(title: "newest", created: 999))
            let second = try await posts.posts(limit: 3, cursor: first.nextCursor)
            #expect(first.posts.map(\.title) == ["old5", "old4", "old3"])
            #expect(second.posts.map(\.title) == ["old2", "old1", "old0"])
            #expect(second.nextCursor == nil)
        }
    }

    @Test func test_aCursorThisStoreNeverGaveIsRefused() async throws {
        try await withDatabase { path in
            let posts = try LocalUseCaseProvider(path: path).makePostsUseCase()
            await #expect(throws: PostsError.self) { try await posts.posts(limit: 10, cursor: "page-2") }
            let nan = "v1:\(String(Double.nan.bitPattern, radix: 16)):\(UUID().uuidString)"
            await #expect(throws: PostsError.self) { try await posts.posts(limit: 10, cursor: nan) }
        }
    }

    @Test func test_aCursorWithALowerCaseUIDPagesLikeTheOriginal() async throws {
        try await withDatabase { path in
            let posts = try LocalUseCaseProvider(path: path).makePostsUseCase()
            for index in 0..<4 { _ = try await posts.save(.stub(title: "p\(index)", created: 100)) }
            let first = try await posts.posts(limit: 2, cursor: nil)
            let cursor = try #require(first.nextCursor)
            let parts = cursor.split(separator: ":")
            let lower = "\(parts[0]):\(parts[1]):\(parts[2].lowercased())"
            #expect(try await posts.posts(limit: 2, cursor: lower) == posts.posts(limit: 2, cursor: cursor))
        }
    }

    @Test func test_aPageStaysWithinItsByteBudget_andPagingStillReachesEveryPost() async throws {
        try await withDatabase { path in
            let posts = try LocalUseCaseProvider(path: path).makePostsUseCase()
            let big = String(repeating: "x", count: PostRules.maxContentBytes)
            _ = try await posts.save((0..<30).map { Post.stub(title: "big \($0)", content: big, created: Double($0)) })
            let pages = try await allPages(posts, limit: 500)
            #expect(pages.count > 1)
            #expect(pages.allSatisfy { $0.reduce(0) { $0 + $1.content.utf8.count } <= PostRules.maxPageBytes })
            #expect(pages.flatMap { $0 }.count == 30)
        }
    }

    @Test func test_deletingRemovesThePost_andSaysWhetherThereWasOne() async throws {
        try await withDatabase { path in
            let posts = try LocalUseCaseProvider(path: path).makePostsUseCase()
            let saved = try await posts.save(.stub())
            #expect(try await posts.delete(uid: saved.uid))
            #expect(try await !posts.delete(uid: saved.uid))
            await #expect(throws: PostsError.notFound(uid: saved.uid)) { try await posts.post(uid: saved.uid) }
        }
    }

    @Test func test_anInvalidPostInABatch_savesNoneOfTheBatch() async throws {
        try await withDatabase { path in
            let posts = try LocalUseCaseProvider(path: path).makePostsUseCase()
            await #expect(throws: PostsError.self) { try await posts.save([.stub(), .stub(title: ""), .stub()]) }
            #expect(try await posts.posts(limit: 10, cursor: nil).posts.isEmpty)
            #expect(try await posts.save([.stub(), .stub()]) == 2)
        }
    }

    @Test func test_theFileKeepsItsPostsWhenOpenedAgain() async throws {
        try await withDatabase { path in
            let saved = try await LocalUseCaseProvider(path: path).makePostsUseCase().save(.stub())
            let reopened = try LocalUseCaseProvider(path: path)
            #expect(try await reopened.makePostsUseCase().post(uid: saved.uid) == saved)
            #expect(try await reopened.makeStatusUseCase().status().posts == 1)
        }
    }

    @Test func test_aRowWithABadUIDFromAnotherProgram_isLeftOut_notGivenAnInventedUID() async throws {
        try await withDatabase { path in
            let provider = try LocalUseCaseProvider(path: path)
            let posts = provider.makePostsUseCase()
            let good = try await posts.save(.stub(title: "good"))
            let bad = try await posts.save(.stub(title: "bad"))
            let other = try DatabaseQueue(path: path)
            try await other.write { db in
                try db.execute(sql: "UPDATE post SET uid = 'not-a-uuid' WHERE uid = ?", arguments: [bad.uid.uuidString])
            }
            #expect(try await posts.posts(limit: 10, cursor: nil).posts.map(\.uid) == [good.uid])
            #expect(try await provider.makePostChangesUseCase().changes(after: 0, limit: 10).changes.map(\.uid) == [good.uid])
        }
    }

    @Test func test_anEditOverWhatWasRead_saves_butNotOverAChangeOrDeleteMadeSince() async throws {
        try await withDatabase { path in
            let posts = try LocalUseCaseProvider(path: path).makePostsUseCase()
            var read = try await posts.save(.stub(title: "First"))
            read.title = "Mine"
            let mine = try await posts.save(read, ifUnchangedSince: read.updateDate)
            #expect(try await posts.post(uid: read.uid).title == "Mine")

            var theirs = mine
            theirs.title = "Theirs"
            _ = try await posts.save(theirs)  // someone else, meanwhile
            var late = mine
            late.title = "Mine again"
            await #expect(throws: PostsError.conflict(uid: mine.uid)) { try await posts.save(late, ifUnchangedSince: mine.updateDate) }
            #expect(try await posts.post(uid: mine.uid).title == "Theirs", "their edit is not overwritten")

            _ = try await posts.delete(uid: mine.uid)
            await #expect(throws: PostsError.conflict(uid: mine.uid), "a deleted post is not brought back") {
                try await posts.save(late, ifUnchangedSince: mine.updateDate)
            }
        }
    }
}

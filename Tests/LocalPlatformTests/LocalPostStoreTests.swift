import Domain
import Foundation
import GRDB
import LocalPlatform
import TestSupport
import TestTraits
import Testing

@Suite("Posts store on a SQLite file", .ownThread, .timeLimit(.minutes(5)))
struct LocalPostStoreTests {
    @Test func test_aCursorThisStoreNeverGaveIsRefused() async throws {
        try await withDatabase { path in
            let posts = try openLocal(path).makePostsUseCase()
            await #expect(throws: PostsError.self) { try await posts.posts(limit: 10, cursor: "page-2") }
            let nan = "v1:\(String(Double.nan.bitPattern, radix: 16)):\(UUID().uuidString)"
            await #expect(throws: PostsError.self) { try await posts.posts(limit: 10, cursor: nan) }
        }
    }

    @Test func test_aCursorWithALowerCaseUIDPagesLikeTheOriginal() async throws {
        try await withDatabase { path in
            let posts = try openLocal(path).makePostsUseCase()
            for index in 0..<4 { _ = try await posts.save(.stub(title: "p\(index)", created: 100), key: nil) }
            let first = try await posts.posts(limit: 2, cursor: nil)
            let cursor = try #require(first.nextCursor)
            let parts = cursor.split(separator: ":")
            let lower = "\(parts[0]):\(parts[1]):\(parts[2].lowercased())"
            #expect(try await posts.posts(limit: 2, cursor: lower) == posts.posts(limit: 2, cursor: cursor))
        }
    }

    @Test func test_aPageStaysWithinItsByteBudget_andPagingStillReachesEveryPost() async throws {
        try await withDatabase { path in
            let posts = try openLocal(path).makePostsUseCase()
            let big = String(repeating: "x", count: PostRules.maxContentBytes)
            _ = try await posts.save(batch: (0..<30).map { Post.stub(title: "big \($0)", content: big, created: Double($0)) }, key: nil)
            let pages = try await allPages(posts, limit: 500)
            #expect(pages.count > 1)
            #expect(pages.allSatisfy { $0.reduce(0) { $0 + $1.content.utf8.count } <= PostRules.maxPageBytes })
            #expect(pages.flatMap { $0 }.count == 30)
        }
    }

    @Test func test_theFileKeepsItsPostsWhenOpenedAgain() async throws {
        try await withDatabase { path in
            let saved = try await openLocal(path).makePostsUseCase().save(.stub(), key: nil)
            let reopened = try openLocal(path)
            #expect(try await reopened.makePostsUseCase().post(uid: saved.uid) == saved)
            #expect(try await reopened.makeStatusUseCase().status().posts == 1)
        }
    }

    @Test func test_aRowWithABadUIDFromAnotherProgram_isLeftOut_notGivenAnInventedUID() async throws {
        try await withDatabase { path in
            let provider = try openLocal(path)
            let posts = provider.makePostsUseCase()
            let good = try await posts.save(.stub(title: "good"), key: nil)
            let bad = try await posts.save(.stub(title: "bad"), key: nil)
            let other = try DatabaseQueue(path: path)
            try await other.write { db in
                try db.execute(sql: "UPDATE post SET uid = 'not-a-uuid' WHERE uid = ?", arguments: [bad.uid.uuidString])
            }
            #expect(try await posts.posts(limit: 10, cursor: nil).posts.map(\.uid) == [good.uid])
            #expect(try await provider.makePostChangesUseCase().changes(after: 0, limit: 10).changes.map(\.uid) == [good.uid])
        }
    }

    @Test func test_aPostReadAgainAfterAnotherProcessEditsIt_isTheEditedPost_andAfterItsDeletion_isNotFound() async throws {
        try await withDatabase { path in
            let reader = try openLocal(path).makePostsUseCase()
            let writer = try openLocal(path).makePostsUseCase()
            let saved = try await writer.save(.stub(title: "first"), key: nil)
            #expect(try await reader.post(uid: saved.uid).title == "first")
            var edited = saved
            edited.title = "second"
            _ = try await writer.save(edited, key: nil)
            #expect(try await reader.post(uid: saved.uid).title == "second", "a connection kept between reads sees the latest commit")
            _ = try await writer.delete(uid: saved.uid, key: nil)
            await #expect(throws: PostsError.notFound(uid: saved.uid)) { try await reader.post(uid: saved.uid) }
        }
    }

    @Test func test_aReadThatSQLiteRefuses_failsNamingSQLitesReasonAndTheStatement() async throws {
        try await withDatabase { path in
            let posts = try openLocal(path).makePostsUseCase()
            let saved = try await posts.save(.stub(title: "here"), key: nil)
            try await DatabaseQueue(path: path).write { try $0.execute(sql: "DROP TABLE post") }
            do {
                _ = try await posts.post(uid: saved.uid)
                Issue.record("a read of a dropped table answered")
            } catch let error as PostsError {
                guard case .failed(let reason) = error else { Issue.record("not a failure: \(error)"); return }
                #expect(reason.hasPrefix("database error: SQLite error 1: no such table: post"), "\(reason)")
                #expect(reason.contains("FROM post WHERE uid = ?"), "\(reason)")
            }
        }
    }

    @Test func test_manyReadsAtOnce_eachGetTheirOwnPost() async throws {
        try await withDatabase { path in
            let posts = try openLocal(path).makePostsUseCase()
            var saved: [Post] = []
            for index in 0..<40 { saved.append(try await posts.save(.stub(title: "post \(index)"), key: nil)) }
            let read = try await withThrowingTaskGroup(of: (Post, Post).self) { group in
                for post in saved { group.addTask { (post, try await posts.post(uid: post.uid)) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(read.count == saved.count)
            #expect(read.allSatisfy { $0.0 == $0.1 })
        }
    }
}

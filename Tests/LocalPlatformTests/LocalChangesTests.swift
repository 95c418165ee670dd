import Domain
import Foundation
import LocalPlatform
import TestSupport
import TestTraits
import Testing

@Suite("Change sequence on a SQLite file", .ownThread, .timeLimit(.minutes(5)))
struct LocalChangesTests {
    @Test func test_everyWriteTakesTheNextSequence_andChangesComeInOrder() async throws {
        try await withDatabase { path in
            let provider = try openLocal(path)
            let posts = provider.makePostsUseCase()
            let a = try await posts.save(.stub(title: "a"), key: nil)
            let b = try await posts.save(.stub(title: "b"), key: nil)
            _ = try await posts.delete(uid: a.uid, key: nil)
            let page = try await provider.makePostChangesUseCase().changes(after: 0, limit: 100)
            #expect(page.head == 3)
            #expect(page.changes.map(\.sequence) == [2, 3])
            #expect(page.changes.map(\.uid) == [b.uid, a.uid])
            #expect(page.changes[1].kind == .delete)
            guard case .upsert(let post) = page.changes[0].kind else {
                Issue.record("expected an upsert")
                return
            }
            #expect(post.title == "b")
        }
    }

    /// A page of changes is a bounded message: as many changes as fit in
    /// `PostRules.maxPageBytes` of text (the first always), the next page
    /// starting where it stopped, deletes among them taking no room.
    @Test func test_changesOfLargePosts_comeInPagesOfBoundedText_eachOnce_inOrder() async throws {
        try await withDatabase { path in
            let provider = try openLocal(path)
            let posts = provider.makePostsUseCase()
            let big = String(repeating: "y", count: PostRules.maxContentBytes)
            let saved = (0..<30).map { Post.stub(title: "big \($0)", content: big, created: Double($0)) }
            _ = try await posts.save(batch: saved, key: nil)
            _ = try await posts.delete(uid: saved[3].uid, key: nil)
            var (after, pages, sequences) = (Int64(0), [[PostChange]](), [Int64]())
            while true {
                let page = try await provider.makePostChangesUseCase().changes(after: after, limit: 500).changes
                guard let last = page.last else { break }
                (after, pages, sequences) = (last.sequence, pages + [page], sequences + page.map(\.sequence))
            }
            let text = { (page: [PostChange]) in
                page.reduce(0) { total, change in
                    guard case .upsert(let post) = change.kind else { return total }
                    return total + PostRules.textBytes(title: post.title, content: post.content)
                }
            }
            #expect(pages.count > 1)
            #expect(pages.allSatisfy { text($0) <= PostRules.maxPageBytes })
            // Each page as full as the bound lets it be: the next one's first change would not have fit.
            #expect(zip(pages, pages.dropFirst()).allSatisfy { page, next in text(page) + text([next[0]]) > PostRules.maxPageBytes })
            #expect(sequences == Array(sequences.sorted()) && Set(sequences).count == 30)
            #expect(pages.flatMap { $0 }.filter { $0.kind == .delete }.map(\.uid) == [saved[3].uid])
        }
    }

    @Test func test_theHeadAfterAWrite_isThatWritesSequence_knownWithoutARead_andAnotherProcessesWritesAreNotClaimed() async throws {
        try await withDatabase { path in
            let provider = try openLocal(path)
            let (posts, changes) = (provider.makePostsUseCase(), provider.makePostChangesUseCase())
            #expect(try await changes.headAfterWrite() == 0, "no write yet: the head, read")
            let saved = try await posts.save(.stub(title: "a"), key: nil)
            #expect(try await changes.headAfterWrite() == 1)
            _ = try await posts.save(batch: [.stub(title: "b"), .stub(title: "c")], key: nil)
            #expect(try await changes.headAfterWrite() == 3)
            _ = try await posts.delete(uid: saved.uid, key: nil)
            #expect(try await changes.headAfterWrite() == 4)
            // Another process on the same file: its write is in the head, not in this one's own.
            _ = try await openLocal(path).makePostsUseCase().save(.stub(title: "elsewhere"), key: nil)
            #expect(try await changes.head() == 5)
            #expect(try await changes.headAfterWrite() == 4)
        }
    }

    @Test func test_eachDatabaseFileHasItsOwnIdentity_keptWhenReopened() async throws {
        let first = try await withDatabase { path in
            let id = try await openLocal(path).makePostChangesUseCase().changes(after: 0, limit: 1).database
            let again = try await openLocal(path).makePostChangesUseCase().changes(after: 0, limit: 1).database
            #expect(id != nil && id == again)
            return id
        }
        let second = try await withDatabase { path in
            try await openLocal(path).makePostChangesUseCase().changes(after: 0, limit: 1).database
        }
        #expect(first != second, "a new file is another database")
    }

    @Test func test_changesArePagedAfterASequence() async throws {
        try await withDatabase { path in
            let provider = try openLocal(path)
            for index in 0..<7 { _ = try await provider.makePostsUseCase().save(.stub(title: "p\(index)"), key: nil) }
            let changes = provider.makePostChangesUseCase()
            let first = try await changes.changes(after: 0, limit: 3)
            let second = try await changes.changes(after: first.changes.last!.sequence, limit: 3)
            let third = try await changes.changes(after: second.changes.last!.sequence, limit: 3)
            #expect((first.changes + second.changes + third.changes).map(\.sequence) == Array(1...7))
            #expect(try await changes.changes(after: 7, limit: 3).changes.isEmpty)
        }
    }

    @Test func test_savingADeletedPostAgain_replacesItsTombstone() async throws {
        try await withDatabase { path in
            let provider = try openLocal(path)
            let posts = provider.makePostsUseCase()
            let post = try await posts.save(.stub(), key: nil)
            _ = try await posts.delete(uid: post.uid, key: nil)
            _ = try await posts.save(post, key: nil)
            let page = try await provider.makePostChangesUseCase().changes(after: 0, limit: 10)
            #expect(page.changes.count == 1)
            #expect(page.changes.first?.sequence == 3)
            guard case .upsert? = page.changes.first?.kind else {
                Issue.record("expected an upsert")
                return
            }
        }
    }

    @Test func test_aBatch_takesTheNextSequenceForEachPost_inItsOrder_replacingTombstones_andKeepingCreateDates() async throws {
        try await withDatabase { path in
            let provider = try openLocal(path)
            let posts = provider.makePostsUseCase()
            let kept = try await posts.save(.stub(title: "kept", created: 100), key: nil)
            let gone = try await posts.save(.stub(title: "gone"), key: nil)
            _ = try await posts.delete(uid: gone.uid, key: nil)
            var edited = kept
            (edited.title, edited.createDate) = ("kept, edited", Date(timeIntervalSince1970: 999))
            let new = Post.stub(title: "new")
            #expect(try await posts.save(batch: [new, gone, edited], key: nil) == 3)
            // Every post's latest change only: the first two saves and the delete are replaced.
            let page = try await provider.makePostChangesUseCase().changes(after: 0, limit: 10)
            #expect(page.head == 6)
            #expect(page.changes.map(\.sequence) == [4, 5, 6], "one each, in the batch's order, after the delete's; no tombstone left")
            #expect(page.changes.map(\.uid) == [new.uid, gone.uid, kept.uid])
            let kinds = page.changes.map { change in if case .upsert = change.kind { "upsert" } else { "delete" } }
            #expect(kinds == ["upsert", "upsert", "upsert"], "the deleted post saved again is no longer a tombstone")
            let read = try await posts.post(uid: kept.uid)
            #expect(read.title == "kept, edited")
            #expect(read.createDate == kept.createDate, "an edit keeps the first create date")
            // A batch with no tombstone anywhere: the next sequences still.
            _ = try await posts.save(batch: [.stub(title: "x"), .stub(title: "y")], key: nil)
            #expect(try await provider.makePostChangesUseCase().changes(after: 6, limit: 10).changes.map(\.sequence) == [7, 8])
        }
    }

    @Test func test_twoConnectionsWritingAtOnce_loseNothing_andShareOneSequence() async throws {
        try await withDatabase { path in
            let one = try openLocal(path).makePostsUseCase()
            let two = try openLocal(path).makePostsUseCase()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<100 {
                    group.addTask { _ = try await (index.isMultiple(of: 2) ? one : two).save(.stub(title: "p\(index)"), key: nil) }
                }
                try await group.waitForAll()
            }
            let changes = try await openLocal(path).makePostChangesUseCase().changes(after: 0, limit: 500)
            #expect(changes.changes.count == 100)
            #expect(changes.changes.map(\.sequence) == Array(1...100))
        }
    }
}

import Domain
import Foundation
import Synchronization

/// A post store in memory that behaves like the SQLite one: an upsert keeps
/// the first createDate and stamps updateDate (a millisecond later each
/// time), a save "if unchanged since" conflicts unless the stored updateDate
/// is that millisecond, pages are newest first by (createDate, uid) with an
/// opaque cursor, and a delete says whether there was a post. It records
/// what it was asked and can be told to fail.
public final class MemoryPostStore: PostStore {
    private struct State {
        var posts: [UUID: Post] = [:]
        var clock = Date(timeIntervalSince1970: 1_800_000_000)
        var failure: PostsError?
        var cursors: [String?] = []
        var saved: [Post] = []
        var deleted: [UUID] = []
        /// Request keys: the operation and the answer (`KeyedWrite`).
        var keys: [String: (operation: String, answer: String)] = [:]

        /// As the real stores do: a remembered key answers as the first
        /// time, without writing; only a write that succeeded is remembered.
        mutating func once<T>(
            _ key: RequestKey?, _ write: KeyedWrite, answer: (T) -> String, remembered: (String) -> T?,
            _ body: (inout State) throws(PostsError) -> T
        ) throws(PostsError) -> T {
            guard let key else { return try body(&self) }
            if let known = keys[key.text] { return try write.replay(key, remembered: known, decode: remembered) }
            let value = try body(&self)
            keys[key.text] = (write.operation, answer(value))
            return value
        }
    }
    private let state = Mutex(State())
    /// Called before each answer: a test may hold it there (a slow store).
    private let gate: (@Sendable () async -> Void)?

    public init(posts: [Post] = [], gate: (@Sendable () async -> Void)? = nil) {
        state.withLock { state in for post in posts { state.posts[post.uid] = post } }
        self.gate = gate
    }

    public func failing(with error: PostsError?) { state.withLock { $0.failure = error } }

    private func checked<T>(_ body: (inout State) throws(PostsError) -> T) async throws(PostsError) -> T {
        await gate?()
        return try state.withLock { (state) throws(PostsError) -> T in
            if let failure = state.failure { throw failure }
            return try body(&state)
        }
    }

    public func page(limit: Int, after cursor: String?) async throws(PostsError) -> PostsPage {
        try await checked { state throws(PostsError) in
            state.cursors.append(cursor)
            let sorted = state.posts.values.sorted { ($0.createDate, $0.uid.uuidString) > ($1.createDate, $1.uid.uuidString) }
            var start = 0
            if let cursor {
                guard let index = sorted.firstIndex(where: { $0.uid.uuidString == cursor }) else { throw .invalid("cursor", .unknownCursor(cursor)) }
                start = index + 1
            }
            let page = Array(sorted[start...].prefix(limit))
            return PostsPage(posts: page, nextCursor: start + page.count < sorted.count ? page.last?.uid.uuidString : nil)
        }
    }

    public func post(uid: UUID) async throws(PostsError) -> Post? {
        try await checked { state in state.posts[uid] }
    }

    public func save(_ post: Post, ifUnchangedSince: Date?, key: RequestKey?) async throws(PostsError) -> Post {
        try await checked { state throws(PostsError) in
            try state.once(key, .save(post), answer: KeyedWrite.answer(saved:), remembered: { KeyedWrite.saved(post, answer: $0) }) {
                state throws(PostsError) in try Self.save(post, ifUnchangedSince: ifUnchangedSince, &state)
            }
        }
    }

    private static func save(_ post: Post, ifUnchangedSince: Date?, _ state: inout State) throws(PostsError) -> Post {
        if let ifUnchangedSince {
            guard let stored = state.posts[post.uid], PostDate.milliseconds(stored.updateDate) == PostDate.milliseconds(ifUnchangedSince)
            else { throw .conflict(uid: post.uid) }
        }
        state.clock.addTimeInterval(0.001)
        var saved = post
        saved.createDate = state.posts[post.uid]?.createDate ?? post.createDate
        saved.updateDate = state.clock
        state.posts[post.uid] = saved
        state.saved.append(saved)
        return saved
    }

    public func save(batch posts: [Post], key: RequestKey?) async throws(PostsError) -> Int {
        guard !posts.isEmpty else { return 0 }
        return try await checked { state throws(PostsError) in
            try state.once(
                key, .batch(posts), answer: KeyedWrite.answer(count:), remembered: KeyedWrite.count(answer:)
            ) {
                state throws(PostsError) in
                for post in posts { _ = try Self.save(post, ifUnchangedSince: nil, &state) }
                return posts.count
            }
        }
    }

    public func delete(uid: UUID, ifUnchangedSince: Date?, key: RequestKey?) async throws(PostsError) -> Bool {
        try await checked { state throws(PostsError) in
            try state.once(key, .delete(uid: uid), answer: KeyedWrite.answer(deleted:), remembered: KeyedWrite.deleted(answer:)) {
                state throws(PostsError) in
                if let ifUnchangedSince {
                    guard let stored = state.posts[uid], PostDate.milliseconds(stored.updateDate) == PostDate.milliseconds(ifUnchangedSince)
                    else { throw .conflict(uid: uid) }
                }
                state.deleted.append(uid)
                return state.posts.removeValue(forKey: uid) != nil
            }
        }
    }

    public func count() async throws(PostsError) -> Int {
        try await checked { state in state.posts.count }
    }

    /// Someone else changes the post, meanwhile.
    public func changeElsewhere(_ uid: UUID, title: String) {
        state.withLock { state in
            state.clock.addTimeInterval(0.001)
            state.posts[uid]?.title = title
            state.posts[uid]?.updateDate = state.clock
        }
    }

    public var asked: [String?] { state.withLock { $0.cursors } }
    public var saved: [Post] { state.withLock { $0.saved } }
    public var deleted: [UUID] { state.withLock { $0.deleted } }
    public var all: [Post] { state.withLock { Array($0.posts.values) } }
}

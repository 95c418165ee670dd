import Domain
import Foundation

/// One client of the failover checker: operations one after another, each
/// recorded in the history with its outcome.
struct CheckedClient: Sendable {
    let number: Int
    let provider: UseCaseProvider
    let log: HistoryLog
    let shared: SharedPosts

    func run(until done: @Sendable () -> Bool) async throws {
        let posts = provider.makePostsUseCase()
        let search = provider.makeSearchUseCase()
        var count = 0
        while !done() {
            count += 1
            let roll = Int.random(in: 0..<100)
            if roll < 30 {
                await create(posts, count)
            } else if roll < 65, let target = shared.any() {
                await edit(posts, target.uid, count)
            } else if roll < 75, let target = shared.take() {
                await delete(posts, target.uid)
            } else if let target = shared.any() {
                await find(search, target.word)
            } else {
                await create(posts, count)
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    private func create(_ posts: any PostsUseCase, _ count: Int) async {
        let word = Self.word()
        let post = Post(title: "\(word) by \(number)", content: "body \(word)")
        var fields: [String: any Sendable] = ["op": "create", "uid": post.uid.uuidString, "title": post.title, "word": word]
        await recorded(&fields) {
            // No key of ours: the connection keys each call, so its failover retries apply once.
            let saved = try await posts.save(post, key: nil)
            shared.add(saved.uid, word: word)
            return ["to": PostDate.milliseconds(saved.updateDate)]
        }
    }

    private func edit(_ posts: any PostsUseCase, _ uid: UUID, _ count: Int) async {
        let read: Post
        do {
            read = try await posts.post(uid: uid)
        } catch {
            var fields: [String: any Sendable] = ["op": "read", "uid": uid.uuidString]
            await recorded(&fields) { throw error }
            return
        }
        let title = "\(Self.word()) edited by \(number)"
        var fields: [String: any Sendable] = [
            "op": "edit", "uid": uid.uuidString, "title": title, "from": PostDate.milliseconds(read.updateDate),
        ]
        await recorded(&fields) {
            let edited = try await posts.edit(read, title: title, content: nil, key: nil)
            return ["to": PostDate.milliseconds(edited.updateDate)]
        }
    }

    private func delete(_ posts: any PostsUseCase, _ uid: UUID) async {
        var fields: [String: any Sendable] = ["op": "delete", "uid": uid.uuidString]
        await recorded(&fields) { ["deleted": try await posts.delete(uid: uid, key: nil)] }
    }

    private func find(_ search: any SearchUseCase, _ word: String) async {
        var fields: [String: any Sendable] = ["op": "search", "word": word]
        await recorded(&fields) { ["hits": try await search.search(word, limit: 10, offset: 0).hits.count] }
    }

    /// Runs `body` and records it: ok with what it returned, fail when the
    /// answer says it was not done, info when nobody can say.
    private func recorded(_ fields: inout [String: any Sendable], _ body: () async throws -> [String: any Sendable]) async {
        fields["client"] = number
        fields["invoke"] = HistoryLog.now
        do {
            let result = try await body()
            fields.merge(result) { $1 }
            fields["type"] = "ok"
        } catch let error as PostsError {
            fields["error"] = "\(error)"
            switch error {
            case .conflict, .notFound, .invalid: fields["type"] = "fail"
            default:
                fields["type"] = "info"
                fields["unavailable"] = true
            }
        } catch {
            fields["error"] = "\(error)"
            fields["type"] = "info"
            fields["unavailable"] = true
        }
        fields["complete"] = HistoryLog.now
        log.record(fields)
    }

    /// A word of 10 lowercase letters, unique enough to search for.
    static func word() -> String { String((0..<10).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement()! }) }
}

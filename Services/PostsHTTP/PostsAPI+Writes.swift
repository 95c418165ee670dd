import Domain
import Foundation

/// The writes: each takes its `Idempotency-Key` as the use case's request
/// key, and its `If-Match` as the use case's "unchanged since", so an edit
/// made on a stale read saves nothing (412) and a write sent again is
/// applied once.
extension PostsAPI {
    /// The fields of a post's body, named by JSON pointer in a 422.
    static let postFields: Set<String> = ["title", "content"]

    /// Creates a post with a uid of its own: derived from the
    /// `Idempotency-Key` when there is one (so a `POST` sent again is the
    /// same post, answered as the first time), else a new one.
    func createPost(_ input: Operations.CreatePost.Input) async throws -> Operations.CreatePost.Output {
        let headers = input.headers
        return await serve(
            "POST /posts", timeout: headers.requestTimeout, traceparent: headers.traceparent, body: Self.postFields,
            failed: { .default(statusCode: $0, $1) }
        ) {
            let key = try Self.key(headers.idempotencyKey)
            guard case .json(let new) = input.body else { throw Problem.invalid("Content-Type", "the body must be application/json") }
            let saved = try await posts.save(Post(uid: key?.derivedUID ?? UUID(), title: new.title, content: new.content ?? ""), key: key)
            return .created(.init(headers: .init(location: Self.address(saved), eTag: ETag.of(saved)), body: .json(.init(saved))))
        }
    }

    /// Creates the post with this uid (201), or replaces its title and
    /// content (200); with `If-Match`, only the post as the client read it.
    func putPost(_ input: Operations.PutPost.Input) async throws -> Operations.PutPost.Output {
        let headers = input.headers
        return await serve(
            "PUT /posts/{uid}", timeout: headers.requestTimeout, traceparent: headers.traceparent, body: Self.postFields,
            failed: { .default(statusCode: $0, $1) }
        ) {
            let uid = try PostRules.uid(input.path.uid)
            let key = try Self.key(headers.idempotencyKey)
            guard case .json(let new) = input.body else { throw Problem.invalid("Content-Type", "the body must be application/json") }
            let post = Post(uid: uid, title: new.title, content: new.content ?? "")
            let current = try await current(uid)
            let saved: Post
            if let tags = present(headers.ifMatch) {
                let read = try Self.matching(tags, current, uid)
                saved = try await posts.save(post, ifUnchangedSince: read.updateDate, key: key)
            } else {
                saved = try await posts.save(post, key: key)
            }
            if current == nil {
                return .created(.init(headers: .init(location: Self.address(saved), eTag: ETag.of(saved)), body: .json(.init(saved))))
            }
            return .ok(.init(headers: .init(eTag: ETag.of(saved)), body: .json(.init(saved))))
        }
    }

    /// A JSON merge patch of the title and/or content (null or absent keeps
    /// a member). Applied to the post as read, and saved only if it is
    /// still so: with `If-Match`, the client's read, else the edge's own
    /// (read again and applied again, up to three times, should another
    /// edit land in between).
    func patchPost(_ input: Operations.PatchPost.Input) async throws -> Operations.PatchPost.Output {
        let headers = input.headers
        return await serve(
            "PATCH /posts/{uid}", timeout: headers.requestTimeout, traceparent: headers.traceparent, body: Self.postFields,
            failed: { .default(statusCode: $0, $1) }
        ) {
            let uid = try PostRules.uid(input.path.uid)
            let key = try Self.key(headers.idempotencyKey)
            let patch: Components.Schemas.PostPatch
            switch input.body {
            case .json(let body), .applicationMergePatchJson(let body): patch = body
            }
            var attempt = 0
            while true {
                attempt += 1
                let read: Post
                if let tags = present(headers.ifMatch) {
                    read = try Self.matching(tags, try await current(uid), uid)
                } else {
                    read = try await posts.post(uid: uid)
                }
                do {
                    let edited = try await posts.edit(read, title: patch.title, content: patch.content, key: key)
                    return .ok(.init(headers: .init(eTag: ETag.of(edited)), body: .json(.init(edited))))
                } catch PostsError.conflict where present(headers.ifMatch) == nil && attempt < 3 {
                    continue
                }
            }
        }
    }

    /// Deletes the post (204; 404 when there is none); with `If-Match`,
    /// only the post as the client read it.
    func deletePost(_ input: Operations.DeletePost.Input) async throws -> Operations.DeletePost.Output {
        let headers = input.headers
        return await serve(
            "DELETE /posts/{uid}", timeout: headers.requestTimeout, traceparent: headers.traceparent,
            failed: { .default(statusCode: $0, $1) }
        ) {
            let uid = try PostRules.uid(input.path.uid)
            let key = try Self.key(headers.idempotencyKey)
            if let tags = present(headers.ifMatch) {
                let read = try Self.matching(tags, try await current(uid), uid)
                _ = try await posts.delete(uid: uid, ifUnchangedSince: read.updateDate, key: key)
            } else {
                guard try await posts.delete(uid: uid, key: key) else { throw PostsError.notFound(uid: uid) }
            }
            return .noContent(.init())
        }
    }

    // MARK: what the writes share

    /// The post as it is now, nil when there is none.
    func current(_ uid: UUID) async throws(PostsError) -> Post? {
        do {
            return try await posts.post(uid: uid)
        } catch .notFound {
            return nil
        }
    }

    /// `current` when `If-Match` names it; 412 otherwise (a post that is
    /// not there matches no tag, not even `*`).
    static func matching(_ tags: String, _ current: Post?, _ uid: UUID) throws(Problem) -> Post {
        guard let current else {
            throw Problem.changed("there is no post \(uid.text) (If-Match: \(tags)); nothing was changed")
        }
        guard ETag.matches(tags, current) else {
            throw Problem.changed(
                "post \(uid.text) is now \(ETag.of(current)), not \(tags); nothing was changed: read it again and send the change with the new If-Match"
            )
        }
        return current
    }

    /// The write's key, from `Idempotency-Key`.
    static func key(_ header: String?) throws(PostsError) -> RequestKey? {
        try header.map { text throws(PostsError) in try RequestKey(text, field: "Idempotency-Key") }
    }

    static func address(_ post: Post) -> String { "/posts/\(post.uid.text)" }
}

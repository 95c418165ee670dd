import Domain
import Foundation
import Logging
import OpenAPIRuntime

/// The change feed as Server-Sent Events, read as the client reads: each
/// `next()` gives the next event's bytes, fetching a page of the feed
/// (`posts.changes`) when the last one is spent, and waiting for the next
/// change notice (`HeadBroadcast`) when the feed has nothing more. So a
/// slow client holds one page at most, never a growing queue, and a client
/// that comes back with the last id it saw misses nothing: the feed, not
/// the notices, says what changed.
struct ChangeEvents: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk

    /// A comment this often keeps an idle connection open through proxies.
    static let heartbeat = Duration.seconds(15)
    /// Changes fetched at once.
    static let page = 200
    /// How long a failed fetch waits before it is tried again (the feed's
    /// service restarting, a gateway moving over): the stream stays open.
    static let retry = Duration.seconds(1)

    let changes: any PostChangesUseCase
    let heads: HeadBroadcast
    /// The sequence the stream starts after.
    let after: Int64
    let subscription: Subscription
    let logger: Logger

    func makeAsyncIterator() -> Iterator {
        Iterator(events: self, cursor: after, encoder: EdgeJSON.encoder())
    }

    struct Iterator: AsyncIteratorProtocol {
        let events: ChangeEvents
        var cursor: Int64
        /// One for the stream, not one per event.
        let encoder: JSONEncoder
        var pending: ArraySlice<PostChange> = []
        var failing = false
        /// The database the stream's sequences count in, once the feed said.
        var database: String?
        /// When the stream last sent anything: a heartbeat is due a
        /// `heartbeat` after it, even while the feed is failing.
        var sent = ContinuousClock.now

        mutating func next() async throws -> HTTPBody.ByteChunk? {
            while !Task.isCancelled {
                if let change = pending.popFirst() {
                    cursor = change.sequence
                    return send(ChangeEvents.event(change, encoder))
                }
                do {
                    let page = try await events.changes.changes(after: cursor, limit: ChangeEvents.page)
                    if failing { events.logger.notice("the change feed answers again", metadata: ["after": "\(cursor)"]) }
                    failing = false
                    // A database made anew (or restored) counts from 1 again:
                    // the client's place means nothing there, so it is told,
                    // and given the new database's changes from the start.
                    let moved = database != nil && page.database != nil && page.database != database
                    if let now = page.database { database = now }
                    if moved || page.head < cursor {
                        events.logger.warning(
                            "the change feed was reset; the stream starts again from its first change",
                            metadata: ["after": "\(cursor)", "head": "\(page.head)"])
                        cursor = 0
                        return send(ChangeEvents.reset(database, encoder))
                    }
                    pending = page.changes[...]
                    if !pending.isEmpty { continue }
                    // Caught up: wait for a notice of something newer, or send a heartbeat.
                    if await events.heads.wait(past: Swift.max(cursor, page.head), upTo: ChangeEvents.heartbeat - (.now - sent)) { continue }
                    return send(": keep-alive\n\n")
                } catch {
                    if !failing { events.logger.warning("the change feed failed; trying again every second", metadata: ["error": "\(error)"]) }
                    failing = true
                    try? await Task.sleep(for: ChangeEvents.retry)
                    if ContinuousClock.now - sent >= ChangeEvents.heartbeat { return send(": keep-alive, the feed is not answering\n\n") }
                }
            }
            return nil
        }

        private mutating func send(_ text: String) -> HTTPBody.ByteChunk {
            sent = .now
            return ArraySlice(text.utf8)
        }
    }

    /// The feed began again (a new database): the client's last id is now
    /// 0, and every change of the new database follows.
    static func reset(_ database: String?, _ encoder: JSONEncoder) -> String {
        let data = (try? encoder.encode(["database": database ?? ""])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return "id: 0\nevent: reset\ndata: \(data)\n\n"
    }

    /// One change as an event: its sequence as the id, its kind as the
    /// event's name, the post (or, for a delete, its uid) as the data.
    static func event(_ change: PostChange, _ encoder: JSONEncoder) -> String {
        let data: Data?
        switch change.kind {
        case .upsert(let post): data = try? encoder.encode(Components.Schemas.Post(post))
        case .delete: data = try? encoder.encode(["uid": change.uid.text])
        }
        let name = if case .delete = change.kind { "delete" } else { "upsert" }
        return "id: \(change.sequence)\nevent: \(name)\ndata: \(String(decoding: data ?? Data("{}".utf8), as: UTF8.self))\n\n"
    }
}

/// One open stream, counted while it lasts: past `limit` at once, a new
/// one is refused (503) rather than let memory and descriptors grow.
final class Subscription: Sendable {
    private let count: OpenCount

    init?(_ count: OpenCount) {
        guard count.open() else {
            count.close()
            return nil
        }
        self.count = count
    }

    deinit { count.close() }
}

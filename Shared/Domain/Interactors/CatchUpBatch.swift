/// Pages of changes fetched in a row for one of `IndexSync`'s writes to the
/// index: consecutive pages after one position, up to
/// `SearchRules.catchUpBatch` changes or `SearchRules.catchUpBatchBytes` of
/// text (at least one page), so that a catch-up writes few large
/// transactions instead of one per page, and holds at most two batches.
struct CatchUpBatch: Sendable {
    var pages: [PostChanges] = []
    /// The position after the last page, were none of them a reset.
    var end: IndexPosition
    /// Whether the feed has more after `end`: the batch stopped at its bounds,
    /// not at the feed's head or at a reset.
    var more = false

    init(after start: IndexPosition) { end = start }

    /// The position an index holds once it applied `page` at `position`. An
    /// empty page: nothing after `applied` is left, the gaps up to the head
    /// were compacted away.
    static func position(after page: PostChanges, from position: IndexPosition) -> IndexPosition {
        var next = IndexPosition(
            applied: page.changes.last.map { max(position.applied, $0.sequence) } ?? position.applied,
            database: page.database ?? position.database)
        if page.changes.isEmpty { next.applied = max(next.applied, page.head) }
        return next
    }

    /// Whether the index has every change of the feed once it holds `page`.
    static func isCaughtUp(_ page: PostChanges, at position: IndexPosition) -> Bool {
        page.changes.isEmpty || position.applied >= page.head
    }

    /// The text a page carries, for the batch's bound.
    static func bytes(of page: PostChanges) -> Int {
        page.changes.reduce(0) { total, change in
            guard case .upsert(let post) = change.kind else { return total }
            return total + PostRules.textBytes(title: post.title, content: post.content)
        }
    }
}

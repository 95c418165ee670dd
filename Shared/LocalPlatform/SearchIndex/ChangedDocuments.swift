import Domain
import Foundation
import GRDB
import Search

/// The documents one page of changes removed (with the texts they had)
/// and added, by rowid, in the order it changed them.
struct ChangedDocuments: Sendable {
    var removed: [ImpactRanker.Document] = []
    var added: [ImpactRanker.Document] = []
    /// For each added document, the position of its change in the page.
    var addedBy: [Int] = []
    /// For each change, in order, the document that held the post before
    /// it and the one that holds it after (nil: none), for `DocumentIDs`.
    var moved: [(uid: UUID, from: Int64?, to: Int64?)] = []
    /// The text the index stores documents with from now on, when this
    /// page trained its dictionary (`DocumentText.trained`).
    var text: DocumentText?
    /// The index's generation before this write (`SearchSchema.generation`),
    /// when it changed anything (nil: every change was applied before).
    var generation: Int64?

    /// Writes `changes` (each with its position in the page, and its text
    /// by that position in `texts`, nil for a delete): the post's document,
    /// found through `ids` or earlier in the page, is removed, and a new one
    /// added, past every other rowid. `ids` is left as it was: the caller
    /// records `moved` once the transaction commits. Each text is stored
    /// as `text` (the index's now) encodes it: as `stored` holds it (by the
    /// same position) when made with that text. A removed document's text
    /// is read back: the ranking takes its words out by it.
    static func write(
        _ changes: [(offset: Int, element: PostChange)], texts: [(title: String, content: String)?], stored: EncodedTexts,
        text: DocumentText, ids: DocumentIDs, _ db: Database
    ) throws -> ChangedDocuments {
        var changed = ChangedDocuments()
        let remove = try db.cachedStatement(sql: "DELETE FROM document WHERE rowid = ? AND uid = ? RETURNING text")
        // Its rowid from SQLite's last insert, not RETURNING: a cursor made,
        // read and reset for each post, and RETURNING's own table in SQLite,
        // cost about 28,000 instructions a post (`callgrind.sh import-search`).
        let insert = try db.cachedStatement(sql: "INSERT INTO document (uid, text) VALUES (?, ?)")
        // Where each post this page changed is now (nil: nowhere).
        var inPage: [UUID: Int64?] = [:]
        for (offset, change) in changes {
            let uid = change.uid
            func removed(_ rowid: Int64) throws -> Bool {
                guard let old = try Data.fetchOne(remove, arguments: [rowid, uid]) else { return false }
                let (title, content) = try text.decode(old)
                changed.removed.append((rowid, title, content))
                return true
            }
            let from: Int64? =
                if let known = inPage[uid] { try known.flatMap { try removed($0) ? $0 : nil } } else { try ids.rowid(of: uid, where: removed) }
            var to: Int64?
            if let (title, content) = texts[offset] {
                // Made before the page's transaction: with another text, should the dictionary have changed since.
                let made = stored.text === text ? stored.blob(at: offset) : nil
                let blob = made ?? text.encode(title: title, content: content)
                try insert.execute(arguments: [uid, blob])
                let rowid = db.lastInsertedRowID
                try DocumentIDs.admit(rowid: rowid, count: ids.count + changed.added.count)
                changed.added.append((rowid, title, content))
                changed.addedBy.append(offset)
                to = rowid
            }
            inPage[uid] = .some(to)
            changed.moved.append((uid, from, to))
        }
        return changed
    }
}

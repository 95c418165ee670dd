import Foundation
import GRDB

/// How many tokens each document of the index has (all columns together),
/// by rowid: what bm25 weighs a match against. FTS5 keeps the same numbers
/// in its `document_fts_docsize` table, one row per document; ranking reads
/// them from here instead (`FTS5Ranking`). A rowid not known here is asked
/// of FTS5, so a missing entry costs time, never a wrong score.
struct DocumentLengths: Sendable {
    private var tokens: ContiguousArray<Int32> = []

    /// The counts by rowid, -1 where unknown, for `body`'s time: ranking
    /// reads them once per match and pays for nothing more than the load.
    func withTokens<R>(_ body: (UnsafeBufferPointer<Int32>) throws -> R) rethrows -> R {
        try tokens.withUnsafeBufferPointer(body)
    }

    /// Records `rowid`'s length, or forgets it (nil).
    mutating func set(_ rowid: Int64, _ length: Int32?) {
        guard rowid >= 0, rowid < Int64(Int32.max) else { return }
        let index = Int(rowid)
        if index >= tokens.count {
            guard length != nil else { return }
            tokens.append(contentsOf: repeatElement(-1, count: index + 1 - tokens.count))
        }
        tokens[index] = length ?? -1
    }

    /// Every document's length, as the index holds them.
    static func load(_ db: Database) throws -> DocumentLengths {
        var lengths = DocumentLengths()
        let rows = try Row.fetchCursor(db, sql: "SELECT id, sz FROM document_fts_docsize")
        while let row = try rows.next() {
            lengths.set(row[0], total(of: row[1]))
        }
        return lengths
    }

    /// The length of the documents at `rowids`, as the index now holds them
    /// (nil for one it no longer has).
    static func read(_ rowids: some Sequence<Int64>, _ db: Database) throws -> [(Int64, Int32?)] {
        let statement = try db.cachedStatement(sql: "SELECT sz FROM document_fts_docsize WHERE id = ?")
        return try rowids.map { rowid in (rowid, try Data.fetchOne(statement, arguments: [rowid]).map(total(of:))) }
    }

    /// FTS5 stores a document's size as one varint per column (SQLite's
    /// varint: big-endian groups of 7 bits, the high bit set on all but the
    /// last byte of a number).
    static func total(of sizes: Data) -> Int32 {
        var total: Int64 = 0
        var value: Int64 = 0
        for byte in sizes {
            value = value << 7 | Int64(byte & 0x7F)
            if byte & 0x80 == 0 {
                total += value
                value = 0
            }
        }
        return Int32(clamping: total)
    }
}

import Domain
import Foundation
import GRDB
import GRDBSQLite
import Search

/// One page of a search, ranked (`ImpactRanker`): only the page's hits are
/// read, and each gets a snippet (`Snippet`).
enum RankedPage {
    /// A hit's uid and its text (`DocumentText`).
    static let hitSQL = "SELECT uid, text FROM document WHERE rowid = ?"

    /// The hits of a ranked page (`ImpactRanker`), with where each
    /// matched as `instances` finds it in the hits' titles and contents (all
    /// at once); a document gone since is left out.
    static func hits(
        _ db: Database, page: [(rowid: Int64, score: Double)], text: DocumentText, instances: ([[String]]) throws -> [[PhraseInstance]]
    ) throws -> [SearchHit] {
        guard !page.isEmpty else { return [] }
        let tokens = try TokenOffsets(db)
        let statement = try db.cachedStatement(sql: hitSQL)
        let rows = try page.compactMap { rowid, score in
            try Row.fetchOne(statement, arguments: [rowid]).map { (rowid, score, $0[0] as DatabaseValue, try text.decode($0[1])) }
        }
        let found = try instances(rows.map { [$0.3.title, $0.3.content] })
        return try zip(rows, found).compactMap { row, instances in
            try hit(RankedMatch(rowid: row.0, score: row.1, instances: instances), row.2, row.3, tokens)
        }
    }

    private static func hit(
        _ match: RankedMatch, _ uid: DatabaseValue, _ text: (title: String, content: String), _ tokens: TokenOffsets
    ) throws -> SearchHit? {
        guard let uid = UUID.fromDatabaseValue(uid) else { return nil }
        let (title, content) = text
        let (snippet, highlights) = try snippet(of: [title, content], match.instances, tokens)
        return SearchHit(uid: uid, title: title, snippet: snippet, highlights: highlights, score: match.score)
    }

    /// The snippet of the hit's best column, and its highlights.
    private static func snippet(
        of columns: [String], _ instances: [PhraseInstance], _ tokens: TokenOffsets
    ) throws -> (text: String, highlights: [Range<Int>]) {
        let (column, start) = Snippet.window(instances) ?? (columns.count - 1, 0)
        guard column < columns.count else { return ("", []) }
        var text = columns[column]
        return try text.withUTF8 { bytes in
            let (offsets, complete) = try tokens.offsets(bytes, limit: start + Snippet.tokens)
            return Snippet.cut(
                bytes, offsets: offsets, complete: complete, start: start,
                highlighting: instances.filter { $0.column == column })
        }
    }
}

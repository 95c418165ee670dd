import Foundation
import GRDB

extension DocumentText {
    /// Trains the index's dictionary from its documents, all stored plain
    /// until now: at most `trainingDocuments` of them, spread evenly by
    /// rowid (an index written before documents were compressed may hold a
    /// million). Then compresses every document with it and saves it in
    /// the index, in the caller's transaction. Answers the text that
    /// encodes with it, to use once that transaction commits; nil when
    /// zstd could not train one from them (nothing changed).
    static func trained(_ db: Database, documents: Int) throws -> DocumentText? {
        let plain = DocumentText()
        let trained = try trained(db, documents: documents) { every in
            var samples: [Data] = []
            try forEachPage(db) { page in
                for (rowid, blob) in page where rowid % Int64(every) == 0 { samples.append(blob.dropFirst()) }
            }
            return samples
        }
        guard let text = trained else { return nil }
        let update = try db.cachedStatement(sql: "UPDATE document SET text = ? WHERE rowid = ?")
        try forEachPage(db) { page in
            for (rowid, blob) in page {
                let (title, content) = try plain.decode(blob)
                try update.execute(arguments: [text.encode(title: title, content: content), rowid])
            }
        }
        return text
    }

    /// A dictionary trained from the texts of every `every`-th document by
    /// rowid, as `samples` gives them for a step that leaves at most
    /// `trainingDocuments` of `documents`, and saved in the index; the text
    /// that encodes with it, or nil should zstd make none (nothing saved).
    static func trained(_ db: Database, documents: Int, samples: (_ every: Int) throws -> [Data]) throws -> DocumentText? {
        let every = max(1, (documents + trainingDocuments - 1) / trainingDocuments)
        guard let dictionary = try train(on: samples(every)) else { return nil }
        try db.execute(sql: "UPDATE searchState SET textDictionary = ? WHERE id = 1", arguments: [Data(dictionary)])
        return DocumentText(dictionary: dictionary)
    }

    /// The text the index at `db` stores its documents with.
    static func stored(_ db: Database) throws -> DocumentText {
        let dictionary = try Data.fetchOne(db, sql: "SELECT textDictionary FROM searchState WHERE id = 1")
        return DocumentText(dictionary: dictionary.map { [UInt8]($0) })
    }

    /// The id of the dictionary the index at `db` holds now (`id`), read
    /// without the dictionary itself.
    static func storedID(_ db: Database) throws -> Data? {
        try Data.fetchOne(db.cachedStatement(sql: "SELECT substr(textDictionary, 5, 4) FROM searchState WHERE id = 1"))
    }

    /// Every document's (rowid, blob), 10,000 at a time in rowid order, so
    /// that `body` may change the rows it is given.
    private static func forEachPage(_ db: Database, _ body: ([(Int64, Data)]) throws -> Void) throws {
        let page = try db.cachedStatement(sql: "SELECT rowid, text FROM document WHERE rowid > ? ORDER BY rowid LIMIT 10000")
        var after: Int64 = -1
        while true {
            let rows = try Row.fetchAll(page, arguments: [after]).map { ($0[0] as Int64, $0[1] as Data) }
            guard let last = rows.last else { return }
            try body(rows)
            after = last.0
        }
    }
}

import Foundation
import GRDB

extension SearchSchema {
    /// FTS5's tables of the documents' words, without a copy of their text
    /// (`FTS5Documents` writes them).
    static let wordsOfDocuments = """
        CREATE VIRTUAL TABLE document_fts USING fts5(title, content, content='', tokenize='porter unicode61');
        INSERT INTO document_fts(document_fts, rank) VALUES ('automerge', 8);
        """
    static let unstemmedWords = """
        CREATE VIRTUAL TABLE document_words USING fts5(title, content, content='', tokenize='unicode61', detail=none, columnsize=0);
        CREATE VIRTUAL TABLE document_vocab USING fts5vocab(document_words, row);
        """

    /// The documents' table again, each title and content in one blob
    /// (`DocumentText`: stored plain until the index trains its dictionary,
    /// at its next write once it holds enough documents), and FTS5's tables
    /// made again without a copy of the text, their words written from the
    /// documents: the same rowids, and the same next rowid, so the saved
    /// ranking postings still hold. At a million posts it takes as long as
    /// FTS5 takes to index them (about half a minute), once.
    static func storeTextInBlobs(_ db: Database) throws {
        let hadWords = try db.tableExists("document_words")
        for table in try FTS5Documents.tables.filter({ try db.tableExists($0) }) {
            try db.dropFTS5SynchronizationTriggers(forTable: table)
        }
        let next = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'document'") ?? 0
        try db.execute(
            sql: """
                DROP TABLE IF EXISTS document_vocab;
                DROP TABLE IF EXISTS document_words;
                DROP TABLE document_fts;
                ALTER TABLE document RENAME TO document_v7;
                CREATE TABLE document (rowid INTEGER PRIMARY KEY AUTOINCREMENT, uid BLOB NOT NULL, text BLOB NOT NULL);
                \(wordsOfDocuments)
                \(hadWords ? unstemmedWords : "")
                ALTER TABLE searchState ADD COLUMN textDictionary BLOB;
                """)
        let plain = DocumentText()
        let words = try FTS5Documents(db)
        let insert = try db.makeStatement(sql: "INSERT INTO document (rowid, uid, text) VALUES (?, ?, ?)")
        // As blobs: GRDB's strings end at a NUL, and FTS5 indexed what came after one.
        let rows = try Row.fetchCursor(db, sql: "SELECT rowid, uid, CAST(title AS BLOB), CAST(content AS BLOB) FROM document_v7")
        while let row = try rows.next() {
            let text = { (column: Int) in String(decoding: row[column] as Data? ?? Data(), as: UTF8.self) }
            let document: ImpactRanker.Document = (row[0], text(2), text(3))
            try insert.execute(arguments: [document.rowid, row[1] as Data, plain.encode(title: document.title, content: document.content)])
            try words.add(document)
        }
        try db.execute(
            sql: """
                DROP TABLE document_v7;
                DELETE FROM sqlite_sequence WHERE name = 'document';
                INSERT INTO sqlite_sequence (name, seq) VALUES ('document', max(?, (SELECT coalesce(max(rowid), 0) FROM document)));
                """, arguments: [next])
    }
}

import Domain
import Foundation
import GRDB
import Synchronization

/// A full-text index of posts: SQLite FTS5 (porter stemming over
/// unicode61, title weighted ten times content; beside it an unstemmed
/// vocabulary for completing unfinished words). Domain's `SearchIndex`
/// (fed by `IndexSync`) and `SearchEngine` ports. It records the position
/// it applied in the same transaction as the changes, so applying a page
/// twice changes nothing.
public final class FTS5SearchIndex: SearchIndex, SearchEngine {
    private let queue: DatabaseQueue
    /// A file index may be written by another process while this one
    /// reads, so a search reads in a transaction. An index in memory has one
    /// connection, and every use of it waits its turn on `queue`, so no
    /// write can come between a search's statements; it reads without a
    /// transaction, whose BEGIN, COMMIT and read-only switches GRDB prepares
    /// anew each time (a third of an empty query's cost in a search worker).
    private let readsInTransaction: Bool
    /// Each document's length, for ranking without reading FTS5's table of
    /// them once per match. Changed only on the database's queue, right
    /// after the transaction that changed the documents commits.
    private let lengths = Mutex(DocumentLengths())
    /// The most of a file index read through a memory map: SQLite's own
    /// limit unless built otherwise (2 GB less 64 KiB).
    static let mapped = 0x7FFF_0000
    /// bm25's weight of a match in the title; one in the content.
    static let titleWeight = 10.0

    /// An index in memory (built from sequence 0), or in a file at `path`
    /// (owner-only), kept between runs. `exclusive`: no other process
    /// writes the file (a search worker holds a lock on its directory), so
    /// reads need no transaction, as in memory.
    public init(path: String? = nil, exclusive: Bool = false) throws(PostsError) {
        do {
            var configuration = Configuration()
            configuration.prepareDatabase { db in try FTS5Ranking.register(db) }
            readsInTransaction = path != nil && !exclusive
            if let path {
                // Read through a memory map: no copy into SQLite's page cache
                // and no read call per page; what it maps is the file's, which
                // the kernel drops under pressure, not the process's own memory.
                configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = \(Self.mapped)") }
                // A file index is derived data, rebuilt from the change feed: WAL
                // with synchronous NORMAL never corrupts it, and a crash can only
                // lose its last pages, which record their own applied sequence.
                configuration.journalMode = .wal
                configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
                queue = try DatabaseQueue(path: path, configuration: configuration)
                chmod(path, 0o600)
            } else {
                queue = try DatabaseQueue(configuration: configuration)
            }
            try SearchSchema.migrator.migrate(queue)
            let loaded = try queue.read(DocumentLengths.load)
            lengths.withLock { $0 = loaded }
        } catch {
            throw .failed("cannot open the search index\(path.map { " at \($0)" } ?? ""): \(error)")
        }
    }

    public func position() async throws(PostsError) -> IndexPosition {
        try await read { db in
            let row = try Row.fetchOne(db, sql: "SELECT applied, database FROM searchState WHERE id = 1")
            return IndexPosition(applied: row?["applied"] ?? 0, database: row?["database"])
        }
    }

    /// The index's size in bytes (SQLite pages in use).
    public func sizeInBytes() async throws(PostsError) -> Int {
        try await read { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let size = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            return pages * size
        }
    }

    public func documentCount() async throws(PostsError) -> Int {
        try await read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM document") ?? 0 }
    }

    public func apply(_ changes: [PostChange], position: IndexPosition) async throws(PostsError) {
        try await writeDocuments { db in
            var touched: [Int64] = []
            let applied = try SearchSchema.applied(db)
            for change in changes where change.sequence > applied {
                switch change.kind {
                case .upsert(let post):
                    try touched += Int64.fetchAll(
                        db.cachedStatement(
                            sql: """
                                INSERT INTO document (uid, title, content) VALUES (?, ?, ?)
                                ON CONFLICT (uid) DO UPDATE SET title = excluded.title, content = excluded.content
                                RETURNING rowid
                                """), arguments: [post.uid.uuidString, Highlights.unmarked(post.title), Highlights.unmarked(post.content)])
                case .delete:
                    try touched += Int64.fetchAll(
                        db.cachedStatement(sql: "DELETE FROM document WHERE uid = ? RETURNING rowid"),
                        arguments: [change.uid.uuidString])
                }
            }
            try db.execute(
                sql: "UPDATE searchState SET applied = max(applied, ?), database = ? WHERE id = 1",
                arguments: [position.applied, position.database])
            return touched
        }
    }

    public func reset(database: String?) async throws(PostsError) {
        try await write { db in
            try db.execute(sql: "DELETE FROM document; UPDATE searchState SET applied = 0, database = ? WHERE id = 1", arguments: [database])
            self.lengths.withLock { $0 = DocumentLengths() }
        }
    }

    /// FTS5's 'optimize': one b-tree per index instead of one per level of
    /// merged transactions. On 100,000 paragraphs built in pages of 500 it
    /// takes about 0.2 s, and a rare word's query then reads a third to a
    /// half less (docs/BENCHMARKS.md).
    public func compact() async throws(PostsError) {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO document_fts(document_fts) VALUES ('optimize');
                    INSERT INTO document_words(document_words) VALUES ('optimize')
                    """)
        }
    }

    public func search(_ query: String, limit: Int, offset: Int) async throws(PostsError) -> SearchResults {
        let terms = SearchQuery.terms(in: query)
        guard let last = terms.last else {
            return SearchResults(hits: [], total: 0, sequence: try await position().applied)
        }
        return try await read { db in
            let match = SearchQuery.expression(for: terms, completions: try Self.completions(of: last, db))
            // Taken on the database's queue, so the lengths are those of the documents this search reads.
            let lengths = self.lengths.withLock { $0 }
            return try lengths.withTokens { tokens in
                let request = RankRequest(keep: limit + offset, weights: [Self.titleWeight, 1], lengths: tokens)
                let hits = try RankedPage.fetch(db, match: match, limit: limit, offset: offset, request: request)
                // Ranking saw every match, so the count is exact and costs nothing more.
                return SearchResults(hits: hits, total: request.matches, sequence: try SearchSchema.applied(db))
            }
        }
    }

    /// The stemmer makes "running" `run`, so the unfinished word `runni`
    /// would not match it as a prefix of stems. The unstemmed vocabulary
    /// knows whole words starting with it; each is then matched as a word
    /// (and so stemmed). A few letters already match stems as a prefix;
    /// the gap only opens once the prefix is longer than a stem, and by
    /// then few words share it. So a prefix that more words share than
    /// `SearchRules.maxCompletions` goes without: each alternative costs
    /// FTS5 another pass, and short prefixes would otherwise double the
    /// time of a query (measured: docs/BENCHMARKS.md). Of the rest, only
    /// words whose stem the prefix does not already match are kept: the
    /// others would find nothing more, and only score the same words twice
    /// (`formatting` is `format`, which `format` matches as a prefix).
    static func completions(of term: SearchQuery.Term, _ db: Database) throws -> [String] {
        guard !term.isPhrase, let word = term.words.last else { return [] }
        let words = try candidates(of: SearchQuery.folded(word), db)
        guard !words.isEmpty else { return [] }
        let stemmer = try db.makeTokenizer(.porter(wrapping: .unicode61()))
        func stem(_ word: String) throws -> String { try stemmer.tokenize(query: word).first?.token ?? word }
        let prefix = try stem(word)
        return try words.filter { try !stem($0).hasPrefix(prefix) }
    }

    /// The whole words other than `prefix` that start with it, or none when
    /// more than `SearchRules.maxCompletions` do.
    static func candidates(of prefix: String, _ db: Database) throws -> [String] {
        // The prefix itself is left out in the query, not after it: counted
        // in the LIMIT, it let the first 8 of any number of words through
        // (`file` went with file1…filelist, alphabetically, of 26). And it
        // is left out by starting past it: fts5vocab counts the documents
        // of every word it steps on, even one the query then drops: on the
        // man-page corpus, `file` made this lookup six times as long. No
        // word has U+0001 in it (unicode61 splits there), so nothing
        // between the prefix and prefix + U+0001 is missed.
        let words = try String.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT term FROM document_vocab WHERE term > ? AND term < ? ORDER BY term LIMIT ?
                    """), arguments: [prefix + "\u{01}", prefix + "\u{10FFFF}", SearchRules.maxCompletions + 1]
        )
        .filter { $0.hasPrefix(prefix) }
        return words.count > SearchRules.maxCompletions ? [] : words
    }

    /// Reads on the calling thread (a worker session's): a search is work
    /// for the CPU, not a wait, and the hops to GRDB's queue and back cost
    /// two thread wake-ups. It waits only while a page of changes is being
    /// written (the index is one connection).
    private func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(PostsError) -> T {
        do { return try readHere(body) } catch { throw .failed("search index: \(error)") }
    }

    /// Not async, so it calls GRDB's synchronous `read` (or `unsafeRead`, see `readsInTransaction`).
    private func readHere<T>(_ body: (Database) throws -> T) throws -> T {
        readsInTransaction ? try queue.read(body) : try queue.unsafeRead(body)
    }

    private func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(PostsError) -> T {
        do { return try await queue.write(body) } catch { throw .failed("search index: \(error)") }
    }

    /// Runs `body` (which returns the rowids of the documents it changed) in
    /// a transaction, then, still on the database's queue so that no search
    /// comes between, records those documents' new lengths.
    private func writeDocuments(_ body: @escaping @Sendable (Database) throws -> [Int64]) async throws(PostsError) {
        do {
            try await queue.writeWithoutTransaction { db in
                var touched: [Int64] = []
                try db.inTransaction {
                    touched = try body(db)
                    return .commit
                }
                let changed = try DocumentLengths.read(touched, db)
                self.lengths.withLock { lengths in
                    for (rowid, length) in changed { lengths.set(rowid, length) }
                }
            }
        } catch {
            throw .failed("search index: \(error)")
        }
    }
}

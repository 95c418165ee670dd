import Domain
import Foundation
import GRDB
import Synchronization

/// A full-text index of posts: their text in SQLite (`document`,
/// compressed, `DocumentText`), their words in block-max postings in
/// memory (`ImpactRanker`: FTS5's porter stemming over unicode61, bm25 as
/// FTS5's, title weighted ten times content), saved beside the file
/// between runs (`saveRanking`). Domain's `SearchIndex` (fed by
/// `IndexSync`) and `SearchEngine` ports. It records the position it
/// applied in the same transaction as the changes, so applying a page
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
    /// Which document holds each post: read at the first write (a start
    /// with nothing to apply never reads every document's uid), then
    /// changed only on the database's queue, right after the transaction
    /// that changed the documents commits.
    private let ids = Mutex<DocumentIDs?>(nil)
    /// Ranks every query, once it holds every document (`loadRanking`,
    /// `restoreRanking`; an empty index's at once): a search before then
    /// loads it first.
    private let ranker: ImpactRanker
    /// The loading a search waits for, when one started it (`search`).
    private let loading = Mutex<Task<Void, any Error>?>(nil)
    /// The index's generation (`SearchSchema.generation`) the ranking holds
    /// the documents of, as this process knows it: where another process
    /// may write the file (`readsInTransaction`), a search that finds
    /// another generation builds the ranking again from the documents.
    private let rankedGeneration = Atomic<Int64>(-1)
    /// How often `followOtherWrites` built the ranking from every document.
    let rankingBuilds = Atomic<Int>(0)
    /// Where the ranking's postings are saved (`saveRanking`), if anywhere.
    private let postingsPath: String?
    /// Changes written since the index was opened (a reset counts one).
    private let writes = Atomic<Int>(0)
    /// `writes` when the postings were last saved or taken up as they
    /// were saved; -1: they differ from the file the index names, if any.
    private let savedAt = Atomic<Int>(-1)
    /// How the documents' text is stored (`DocumentText`): plain until the
    /// index trains its dictionary, then compressed. As this process last
    /// found it: every write checks the file's (`currentText`), where
    /// another process may have trained or forgotten it, and so does every
    /// read where another process may write the file (`readText`).
    private let text: Mutex<DocumentText>
    /// The number of documents at which the index trains its dictionary
    /// (again, at twice as many, should zstd make none of them).
    private let trainingAfter: Int
    private let trainingAt: Atomic<Int>
    /// An index in memory (built from sequence 0), or in a file at `path`
    /// (owner-only), kept between runs. `exclusive`: no other process
    /// writes the file (a search worker holds a lock on its directory), so
    /// reads need no transaction, as in memory. `postingsPath`:
    /// where those postings are saved, for the next start (`saveRanking`).
    /// `trainingAfter`: the number of documents at which the index trains
    /// the dictionary it compresses their text with (by default
    /// `DocumentText.trainingDocuments`).
    public init(
        path: String? = nil, exclusive: Bool = false, postingsPath: String? = nil,
        trainingAfter: Int? = nil
    ) throws(PostsError) {
        self.postingsPath = path == nil ? nil : postingsPath
        self.trainingAfter = trainingAfter ?? DocumentText.trainingDocuments
        trainingAt = Atomic(self.trainingAfter)
        do {
            ranker = try ImpactRanker()
            var configuration = Configuration()
            readsInTransaction = path != nil && !exclusive
            if let path {
                // Read through a memory map, with a cache that holds a page of changes.
                configuration.prepareDatabase(SQLiteFile.readThroughMap)
                // A file index is derived data, rebuilt from the change feed: WAL
                // with synchronous NORMAL never corrupts it, and a crash can only
                // lose its last pages, which record their own applied sequence.
                configuration.journalMode = .wal
                configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
                // Made owner-only before SQLite opens it: its -wal and -shm take its mode.
                try OwnerOnlyFiles.prepare(database: path)
                queue = try DatabaseQueue(path: path, configuration: configuration)
                chmod(path, 0o600)
            } else {
                queue = try DatabaseQueue(configuration: configuration)
            }
            let migrator = SearchSchema.migrator(trainingAfter: self.trainingAfter)
            let shrinking = try queue.read { db in try SearchSchema.dropsTables(migrator, db) }
            try migrator.migrate(queue)
            if shrinking { try SearchSchema.giveBackRoom(queue) }
            text = Mutex(try queue.read(DocumentText.stored))
            // An empty index holds every document it has: it ranks at once, each write given to it.
            let (empty, generation) = try queue.read { db in
                (try !Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM document)")!, try SearchSchema.generation(db))
            }
            if empty {
                ranker.reset()
                rankedGeneration.store(generation, ordering: .relaxed)
            }
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

    /// The index's size in bytes: its SQLite pages, free ones too (the
    /// file's size, but for its write-ahead log).
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

    /// A changed post is removed and added again: its new rowid is past
    /// every other, as the ranking's postings need (`ImpactIndex`).
    /// The ranking's words of the page's posts are found on another thread
    /// while SQLite writes them (`InBackground`).
    public func apply(_ changes: [PostChange], position: IndexPosition) async throws(PostsError) {
        let texts = changes.map { change -> (title: String, content: String)? in
            guard case .upsert(let post) = change.kind else { return nil }
            return (Highlights.unmarked(post.title), Highlights.unmarked(post.content))
        }
        let words = InBackground { [ranker] in try ranker.words(of: texts) }
        let stored = EncodedTexts(texts, as: text.withLock { $0 })
        try await writeDocuments(words: words) { db in
            // Another process may have written the file since this one's ranking last matched it.
            if self.readsInTransaction && self.ranker.isComplete { try self.followOtherWrites(db) }
            let applied = try SearchSchema.applied(db)
            let current = try self.currentText(db)
            let known = try self.ids.withLock { ids in
                let known = try ids ?? DocumentIDs.load(db)
                ids = known
                return known
            }
            var changed = try ChangedDocuments.write(
                changes.enumerated().filter { $0.element.sequence > applied }, texts: texts, stored: stored, text: current, ids: known, db)
            let documents = known.count + changed.added.count - changed.removed.count
            changed.text = try self.trainedText(db, current: current, documents: documents)
            // A page whose every change was applied before changes nothing: no other process need follow it.
            if !changed.added.isEmpty || !changed.removed.isEmpty || changed.text != nil {
                changed.generation = try SearchSchema.countWrite(db)
            }
            try db.execute(
                sql: "UPDATE searchState SET applied = max(applied, ?), database = ? WHERE id = 1",
                arguments: [position.applied, position.database])
            return changed
        }
    }

    /// Takes up the ranking's postings saved beside the index (at its last
    /// stop, or since) when the index names their file: queries of words
    /// are then ranked by them at once. Documents removed or changed since
    /// the save are taken out of them here (one pass over every posting);
    /// those added since are past the rowid they reach, and `loadRanking`
    /// reads them. Called before any write.
    public func restoreRanking() async throws(PostsError) -> RankingRestore {
        guard let postingsPath, let id = try await read(SearchSchema.savedPostings) else { return .nothingSaved }
        let saved: (index: ImpactIndex, loadedThrough: Int64)
        do throws(StoredPostingsError) {
            saved = try StoredPostings.read(from: postingsPath, id: id)
        } catch {
            try await write { db in try SearchSchema.forgetSavedPostings(id, db) }
            return .unusable(error.description)
        }
        return try await read { db in
            guard try SearchSchema.savedPostings(db) == id else { return .nothingSaved }
            var index = saved.index
            let live = try Int64.fetchAll(db, sql: "SELECT rowid FROM document WHERE rowid <= ?", arguments: [saved.loadedThrough])
            let removed = index.keepOnly(live)
            let beyond = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM document WHERE rowid > ?)", arguments: [saved.loadedThrough])!
            self.ranker.restore(index, loadedThrough: saved.loadedThrough, complete: !beyond)
            if removed == 0 { self.savedAt.store(self.writes.load(ordering: .relaxed), ordering: .relaxed) }
            return .restored(removed: removed)
        }
    }

    /// Loads the ranking's postings from the documents not yet in them (all
    /// of them, unless restored), a page at a time between writes, which go
    /// on meanwhile; from then on queries of words are ranked by them.
    /// Answers how many documents it read.
    @discardableResult
    public func loadRanking(pageSize: Int = loadPage) async throws(PostsError) -> Int {
        var loadedThrough = ranker.loadedThrough
        var loaded = 0
        while true {
            let after = loadedThrough
            let (last, count) = try await read { db in
                let documents = try self.documents(after: after, atMost: pageSize, db)
                try self.ranker.load(documents, through: documents.last?.rowid ?? after, complete: documents.count < pageSize)
                return (documents.last?.rowid ?? after, documents.count)
            }
            (loadedThrough, loaded) = (last, loaded + count)
            if count > 0 { savedAt.store(-1, ordering: .relaxed) }  // more than the saved file holds
            if count < pageSize { return loaded }
            await Task.yield()
        }
    }

    /// Saves the ranking's postings beside the index (`StoredPostings`)
    /// and names the file in the index, so that the next start takes them
    /// up (`restoreRanking`). Answers the bytes written; nil when there is
    /// nothing to save (no place for them, not loaded yet, or no change
    /// since the file the index names was saved or taken up).
    @discardableResult
    public func saveRanking() async throws(PostsError) -> Int? { try await saveRanking(whileWriting: {}) }

    /// `whileWriting` runs once the file is written, before it is named
    /// (a test's seam: a write that comes while a save writes, which the
    /// next start takes out or reads as it would any change after a save).
    func saveRanking(whileWriting: () async throws -> Void) async throws(PostsError) -> Int? {
        guard let postingsPath else { return nil }
        let taken = try await read { db -> (index: ImpactIndex, loadedThrough: Int64, writes: Int)? in
            let writes = self.writes.load(ordering: .relaxed)
            guard let saved = self.ranker.saved(), try writes != self.savedAt.load(ordering: .relaxed) || SearchSchema.savedPostings(db) == nil
            else { return nil }
            return (saved.index, saved.loadedThrough, writes)
        }
        guard let taken else { return nil }
        let id = UUID()
        let size: Int
        do {
            size = try StoredPostings.write(taken.index, loadedThrough: taken.loadedThrough, id: id, to: postingsPath)
        } catch {
            throw .failed("cannot save the ranking postings: \(error)")
        }
        do { try await whileWriting() } catch { throw .failed("\(error)") }
        try await write { db in
            try db.execute(sql: "UPDATE searchState SET postings = ? WHERE id = 1", arguments: [id.uuidString])
            self.savedAt.store(taken.writes, ordering: .relaxed)
        }
        return size
    }

    /// The id of the saved postings' file the index names, if any.
    func savedPostingsID() async throws(PostsError) -> UUID? { try await read(SearchSchema.savedPostings) }

    /// Changes written since the index was opened.
    public var changesWritten: Int { writes.load(ordering: .relaxed) }

    /// Whether the ranking's postings hold every document (they rank every
    /// query; a search before then loads them first).
    public var rankingLoaded: Bool { ranker.isComplete }

    public func reset(database: String?) async throws(PostsError) {
        let generation = try await write { db in
            try db.execute(
                sql: """
                    DELETE FROM document; UPDATE searchState SET applied = 0, database = ?, postings = NULL, textDictionary = NULL WHERE id = 1
                    """, arguments: [database])
            self.writes.add(1, ordering: .relaxed)
            self.trainingAt.store(self.trainingAfter, ordering: .relaxed)
            self.ids.withLock { $0 = DocumentIDs() }
            self.ranker.reset()
            return try SearchSchema.countWrite(db)
        }
        // Emptied, the ranking holds what the file does, whoever wrote before.
        rankedGeneration.store(generation + 1, ordering: .relaxed)
    }

    /// The ranking's postings trimmed to their size, and the memory they
    /// grew into given back (after a long catch-up).
    public func compact() async throws(PostsError) {
        try await write { _ in self.ranker.trim() }
    }

    /// Ranked by the ranking's postings, loaded first should they not be
    /// yet (a file index opened with documents and no saved postings).
    public func search(_ query: String, limit: Int, offset: Int) async throws(PostsError) -> SearchResults {
        guard !SearchQuery.terms(in: query).isEmpty else {
            return SearchResults(hits: [], total: 0, sequence: try await position().applied)
        }
        if !readsInTransaction && !ranker.isComplete { try await rankingLoadedOnce() }
        let (results, save) = try await read { db in
            let save = self.readsInTransaction ? try self.followOtherWrites(db) : false
            let stored = try self.readText(db)
            // A phrase's posts are read as a page's hits are (uid, text).
            let texts = try db.cachedStatement(sql: RankedPage.hitSQL)
            let text = { (rowid: Int64) in try Row.fetchOne(texts, arguments: [rowid]).map { try stored.decode($0[1]) } }
            guard let ranked = try self.ranker.rank(query, keep: limit + offset, texts: text) else {
                throw PostsError.failed("the search ranking is not loaded")  // a reset or a load completes it, and it stays so
            }
            let page = zip(ranked.rowids, ranked.scores).dropFirst(offset).prefix(limit).map { ($0, $1) }
            let hits = try RankedPage.hits(db, page: page, text: stored) { hits in try self.ranker.instances(in: hits, of: ranked) }
            return (SearchResults(hits: hits, total: ranked.total, totalIsExact: ranked.totalIsExact, sequence: try SearchSchema.applied(db)), save)
        }
        // Saved for the next process on this file, which takes them up instead of building them; a
        // save that fails costs that process a build, never this search (`saveRanking` names the file last).
        if save { _ = try? await saveRanking() }
        return results
    }

    /// Where another process may write the file (`posts --local` beside a
    /// running interface): the ranking brought to the file's generation,
    /// when it holds another, in the caller's transaction. Held by none yet
    /// (a process's first search), it is taken up from the postings saved
    /// beside the file when the file names them, else built from every
    /// document; then the documents gone since are taken out (one pass over
    /// every posting, only when some are) and those added read (past every
    /// rowid it held: the file never gives a rowid twice, and this process
    /// brings the ranking up to date before it writes, `apply`). Answers
    /// whether to save it for the next process (built anew, or more than
    /// `SearchRules.catchUpBatch` documents read since the saved ones).
    @discardableResult
    private func followOtherWrites(_ db: Database) throws -> Bool {
        let generation = try SearchSchema.generation(db)
        guard generation != rankedGeneration.load(ordering: .relaxed) else { return false }
        var built = false
        if !ranker.isComplete {
            if let postingsPath, let id = try SearchSchema.savedPostings(db), let saved = try? StoredPostings.read(from: postingsPath, id: id) {
                var index = saved.index
                let live = try Int64.fetchAll(db, sql: "SELECT rowid FROM document WHERE rowid <= ?", arguments: [saved.loadedThrough])
                index.keepOnly(live)
                ranker.restore(index, loadedThrough: saved.loadedThrough, complete: false)
            } else {
                ranker.unload()
                built = true
                rankingBuilds.add(1, ordering: .relaxed)
            }
        } else {
            let live = try Int64.fetchAll(db, sql: "SELECT rowid FROM document WHERE rowid <= ?", arguments: [ranker.loadedThrough])
            ranker.keepOnly(live)
        }
        // What it does not hold yet, a page at a time (so a build never holds every text at once).
        var added = 0
        while true {
            let page = try documents(after: ranker.loadedThrough, atMost: Self.loadPage, db)
            try ranker.load(page, through: page.last?.rowid ?? ranker.loadedThrough, complete: page.count < Self.loadPage)
            added += page.count
            if page.count < Self.loadPage { break }
        }
        rankedGeneration.store(generation, ordering: .relaxed)
        let save = built || added > SearchRules.catchUpBatch
        if save { savedAt.store(-1, ordering: .relaxed) }
        return save && postingsPath != nil
    }

    /// Documents the ranking reads at once while it loads.
    public static let loadPage = 10_000

    /// The first `limit` documents past `rowid`, in rowid order, as the ranking takes them.
    private func documents(after rowid: Int64, atMost limit: Int, _ db: Database) throws -> [ImpactRanker.Document] {
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT rowid, text FROM document WHERE rowid > ? ORDER BY rowid LIMIT ?"), arguments: [rowid, limit])
        let text = try readText(db)
        return try rows.map { row in
            let (title, content) = try text.decode(row[1])
            return (row[0], title, content)
        }
    }

    /// After this process's write, which found the file at `generation`:
    /// the ranking holds the write, and so the next generation, if it held
    /// the one the write found; else another process wrote since, and the
    /// next search follows it (`followOtherWrites`).
    private func wrote(after generation: Int64) {
        _ = rankedGeneration.compareExchange(expected: generation, desired: generation + 1, ordering: .relaxed)
    }

    /// Loads the ranking, once however many searches wait for it.
    private func rankingLoadedOnce() async throws(PostsError) {
        let task = loading.withLock { task in
            if let task { return task }
            let started = Task { _ = try await self.loadRanking() }
            task = started
            return started
        }
        do {
            try await task.value
        } catch {
            loading.withLock { if $0 == task { $0 = nil } }  // the next search tries again
            throw error as? PostsError ?? .failed("search index: \(error)")
        }
    }

    /// The text to store documents with from this write on, when it is the
    /// time to train the dictionary (`DocumentText.trained`): the index has
    /// none, and holds `documents`, at least `trainingAt`. Nil otherwise.
    private func trainedText(_ db: Database, current: DocumentText, documents: Int) throws -> DocumentText? {
        guard current.dictionary == nil, documents >= trainingAt.load(ordering: .relaxed) else { return nil }
        guard let trained = try DocumentText.trained(db, documents: documents) else {
            trainingAt.store(documents * 2, ordering: .relaxed)
            return nil
        }
        return trained
    }

    /// The text the index's documents are stored with now: the one this
    /// process holds, or, should the file's dictionary differ (another
    /// process trained or forgot one), the file's, read again. One small
    /// read in the caller's transaction.
    private func currentText(_ db: Database) throws -> DocumentText {
        let id = try DocumentText.storedID(db)
        return try text.withLock { held in
            if held.id != id { held = try DocumentText.stored(db) }
            return held
        }
    }

    /// The text to read documents with: the file's now (`currentText`) where
    /// another process may write it; else the one held, which only this
    /// process's writes change (a search spares the read of the file's).
    private func readText(_ db: Database) throws -> DocumentText {
        readsInTransaction ? try currentText(db) : text.withLock { $0 }
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

    /// Runs `body` (which answers the documents it removed and added) in a
    /// transaction, then, still on the database's queue so that no search
    /// comes between, gives them to the ranking, with the `words` of each
    /// change found meanwhile (by the change's position in the page; should
    /// that have failed, the ranking finds them here instead).
    private func writeDocuments(
        words: InBackground<[ImpactRanker.Words?]>, _ body: @escaping @Sendable (Database) throws -> ChangedDocuments
    ) async throws(PostsError) {
        do {
            try await queue.writeWithoutTransaction { db in
                var changed = ChangedDocuments()
                try db.inTransaction {
                    changed = try body(db)
                    return .commit
                }
                if let text = changed.text { self.text.withLock { $0 = text } }
                self.writes.add(max(1, changed.removed.count + changed.added.count), ordering: .relaxed)
                var found: [Int64: ImpactRanker.Words] = [:]
                if let words = try? words.wait() {
                    for (document, offset) in zip(changed.added, changed.addedBy) { found[document.rowid] = words[offset] }
                }
                self.ids.withLock { ids in
                    for (uid, from, to) in changed.moved {
                        if let from { ids?.remove(uid, rowid: from) }
                        if let to { ids?.insert(uid, rowid: to) }
                    }
                }
                // A post changed twice in one page was added and removed again.
                let removed = Set(changed.removed.map(\.rowid))
                do {
                    try self.ranker.apply(removed: changed.removed, added: changed.added.filter { !removed.contains($0.rowid) }, words: found)
                } catch {
                    self.rankedGeneration.store(-1, ordering: .relaxed)  // built again at the next search, where others write
                    throw error
                }
                if let generation = changed.generation { self.wrote(after: generation) }
            }
        } catch {
            throw .failed("search index: \(error)")
        }
    }
}

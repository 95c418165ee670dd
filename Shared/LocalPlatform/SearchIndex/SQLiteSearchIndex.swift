import Domain
import Foundation
import GRDB
import Search
import Synchronization

/// A full-text index of posts: their text in SQLite (`document`,
/// compressed, `DocumentText`), their words in block-max postings in
/// memory (`ImpactRanker`: FTS5's porter stemming over unicode61, bm25 as
/// FTS5's, title weighted ten times content), saved beside the file
/// between runs (`saveRanking`). Domain's `SearchIndex` (fed by
/// `IndexSync`) and `SearchEngine` ports. It records the position it
/// applied in the same transaction as the changes, so applying a page
/// twice changes nothing.
public final class SQLiteSearchIndex: SearchIndex, SearchEngine {
    let queue: DatabaseQueue
    /// A file index may be written by another process while this one
    /// reads, so a search reads in a transaction. An index in memory has one
    /// connection, and every use of it waits its turn on `queue`, so no
    /// write can come between a search's statements; it reads without a
    /// transaction, whose BEGIN, COMMIT and read-only switches GRDB prepares
    /// anew each time (a third of an empty query's cost in a search worker).
    let readsInTransaction: Bool
    /// Where no other process writes the file (`exclusive`), searches read
    /// through connections of their own, on every core at once; nil: they
    /// take turns on `queue`.
    let readers: SearchReaders?
    /// Passed by each search on `readers`, and closed from just before a
    /// page of changes commits until the ranking holds it: no search sees
    /// the documents or the ranking with half a page in them, nor one
    /// without the other.
    let gate = SearchGate()
    /// A page of a catch-up being ranked on a thread of its own while the
    /// queue writes the next one's documents (`writeThenRank`).
    private let rankingAside = Mutex<InBackground<Void>?>(nil)
    /// Why the ranking of a worker's index lost a page of changes, if it
    /// did (`rankingFailed`): every search and write fails naming it.
    private let rankingLost = Mutex<String?>(nil)
    /// Which document holds each post: read at the first write (a start
    /// with nothing to apply never reads every document's uid), then
    /// changed only on the database's queue, right after the transaction
    /// that changed the documents commits.
    private let ids = Mutex<DocumentIDs?>(nil)
    /// Ranks every query, once it holds every document (`loadRanking`,
    /// `restoreRanking`; an empty index's at once): a search before then
    /// loads it first.
    let ranker: ImpactRanker
    /// The loading a search waits for, when one started it (`search`).
    let loading = Mutex<Task<Void, any Error>?>(nil)
    /// The index's generation (`SearchSchema.generation`) the ranking holds
    /// the documents of, as this process knows it: where another process
    /// may write the file (`readsInTransaction`), a search that finds
    /// another generation builds the ranking again from the documents.
    let rankedGeneration = Atomic<Int64>(-1)
    /// How often `followOtherWrites` built the ranking from every document.
    let rankingBuilds = Atomic<Int>(0)
    /// Where the ranking's postings are saved (`saveRanking`), if anywhere.
    let postingsPath: String?
    /// Changes written since the index was opened (a reset counts one).
    let writes = Atomic<Int>(0)
    /// `writes` when the postings were last saved or taken up as they
    /// were saved; -1: they differ from the file the index names, if any.
    let savedAt = Atomic<Int>(-1)
    /// How the documents' text is stored (`DocumentText`): plain until the
    /// index trains its dictionary, then compressed. As this process last
    /// found it: every write checks the file's (`currentText`), where
    /// another process may have trained or forgotten it, and so does every
    /// read where another process may write the file (`readText`).
    let text: Mutex<DocumentText>
    /// The number of documents at which the index trains its dictionary
    /// (again, at twice as many, should zstd make none of them).
    let trainingAfter: Int
    let trainingAt: Atomic<Int>
    /// An index in memory (built from sequence 0), or in a file at `path`
    /// (owner-only), kept between runs. `exclusive`: no other process
    /// writes the file (a search worker holds a lock on its directory), so
    /// reads need no transaction, as in memory. `postingsPath`:
    /// where those postings are saved, for the next start (`saveRanking`).
    /// `trainingAfter`: the number of documents at which the index trains
    /// the dictionary it compresses their text with (by default
    /// `DocumentText.trainingDocuments`).
    public convenience init(
        path: String? = nil, exclusive: Bool = false, postingsPath: String? = nil,
        trainingAfter: Int? = nil
    ) throws(PostsError) {
        try self.init(path: path, exclusive: exclusive, postingsPath: postingsPath, trainingAfter: trainingAfter, ranker: try ImpactRanker.fts5())
    }

    /// The same, ranked by `ranker` (the tests': one whose words fail).
    init(path: String?, exclusive: Bool, postingsPath: String?, trainingAfter: Int?, ranker: ImpactRanker) throws(PostsError) {
        self.postingsPath = path == nil ? nil : postingsPath
        self.trainingAfter = trainingAfter ?? DocumentText.trainingDocuments
        trainingAt = Atomic(self.trainingAfter)
        self.ranker = ranker
        do {
            var configuration = Configuration()
            readsInTransaction = path != nil && !exclusive
            readers = exclusive ? path.map(SearchReaders.init(path:)) : nil
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
    /// while SQLite writes them (`InBackground`). While a save of the
    /// ranking has kept all the changes it may (`ImpactRanker.hasRoomForChanges`),
    /// it waits for the save to end.
    public func apply(_ changes: [PostChange], position: IndexPosition) async throws(PostsError) {
        try rankingIsWhole()
        await roomForChanges()
        let texts = changes.map { change -> (title: String, content: String)? in
            guard case .upsert(let post) = change.kind else { return nil }
            return (post.title, post.content)
        }
        let words = InBackground { [ranker] in try ranker.words(of: texts) }
        let stored = EncodedTexts(texts, as: text.withLock { $0 })
        try await writeDocuments(words: words, rankAside: readers != nil && changes.count >= Self.rankedAsideFrom) { db in
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

    /// Waits (without holding a thread) until the ranking may take more
    /// changes; says so in the log past `roomWaitReported`.
    private func roomForChanges() async {
        let started = ContinuousClock.now
        var reported = false
        while !ranker.hasRoomForChanges && !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(10))
            if !reported && started.duration(to: .now) > Self.roomWaitReported {
                reported = true
                Self.logger.notice("changes wait for the ranking postings' save to end", metadata: ["waited": "\(started.duration(to: .now))"])
            }
        }
    }

    /// How long changes may wait for a save before the log says so.
    static let roomWaitReported = Duration.seconds(10)

    /// Pages of at least this many changes (a catch-up's) are ranked on a
    /// thread of their own while the next page's documents are written,
    /// where searches pass the gate (`readers`). A smaller page is ranked
    /// at once: no page is likely to follow it.
    static let rankedAsideFrom = 1_000

    /// Returns once the page last applied is ranked (a catch-up's last,
    /// `rankAside`), so that no search waits for it. With none ranked
    /// aside (every catch-up of a few changes), at once: no hop to the
    /// database's queue. `apply` set it before it returned.
    ///
    /// The catch-up ended: the room the ranking kept for large batches is
    /// let go of, on the database's queue too (`ImpactIndex.letGoOfBatchRoom`).
    public func settle() async throws(PostsError) {
        if rankingAside.withLock({ $0 != nil }) { try await write { _ in self.rankedAside() } }
        if ranker.holdsBatchRoom { try await write { _ in self.ranker.letGoOfBatchRoom() } }
        try rankingIsWhole()
    }

    /// Waits for the page being ranked on a thread of its own, if any.
    @available(*, noasync, message: "blocks its thread: call it on the database's queue")
    private func rankedAside() {
        let pending = rankingAside.withLock { pending in
            defer { pending = nil }
            return pending
        }
        _ = try? pending?.wait()
    }

    /// A page of changes the ranking could not take (its documents are
    /// written). Where another process may write the file, the next
    /// search builds the ranking again (`followOtherWrites`). In a worker's
    /// own index, which nothing else rebuilds while it runs, every search
    /// and write fails from now on naming it, and no save keeps the
    /// ranking: a start builds it again from the documents (and postings
    /// saved before, if any).
    func rankingFailed(_ error: any Error) {
        rankedGeneration.store(-1, ordering: .relaxed)
        guard readers != nil else { return }
        Self.logger.critical(
            "a page of changes was not ranked; searches fail until the worker is started again", metadata: ["error": "\(error)"])
        rankingLost.withLock { $0 = "\(error)" }
    }

    /// Throws once the ranking lost a page (`rankingFailed`).
    func rankingIsWhole() throws(PostsError) {
        if let lost = rankingLost.withLock({ $0 }) {
            throw .failed("the search ranking lost a page of changes (\(lost)); start the worker again to build it from the documents")
        }
    }

    /// Changes written since the index was opened.
    public var changesWritten: Int { writes.load(ordering: .relaxed) }

    /// Ranking postings held in memory of its own: added since the ranking
    /// last took up its saved postings (`ImpactRanker.postingsAddedSinceSaved`).
    public var postingsInMemory: Int { ranker.postingsAddedSinceSaved }

    /// The documents' stems held in memory of its own (4-byte values,
    /// where a posting is 8 bytes): added since the ranking last took up
    /// its saved postings.
    public var stemsInMemory: Int { ranker.stemsHeld.inMemory }

    /// Whether the ranking's postings hold every document (they rank every
    /// query; a search before then loads them first).
    public var rankingLoaded: Bool { ranker.isComplete }

    public func reset(database: String?) async throws(PostsError) {
        let generation = try await writeThenRank { db in
            try db.execute(
                sql: """
                    DELETE FROM document; UPDATE searchState SET applied = 0, database = ?, postings = NULL, textDictionary = NULL WHERE id = 1
                    """, arguments: [database])
            return try SearchSchema.countWrite(db)
        } rank: { _ in
            self.writes.add(1, ordering: .relaxed)
            self.trainingAt.store(self.trainingAfter, ordering: .relaxed)
            self.ids.withLock { $0 = DocumentIDs() }
            self.ranker.reset()
        }
        // Emptied, the ranking holds what the file does, whoever wrote before.
        rankedGeneration.store(generation + 1, ordering: .relaxed)
    }

    /// The ranking's postings saved beside the file (`saveRanking`), when
    /// they hold every document and differ from those it names.
    public func keepForNextProcess() async throws(PostsError) {
        guard ranker.isComplete else { return }
        _ = try await saveRanking()
    }

    /// The ranking's postings trimmed to their size, and the memory they
    /// grew into given back (after a long catch-up).
    public func compact() async throws(PostsError) {
        try await write { _ in
            self.rankedAside()
            self.ranker.trim()
        }
    }

    /// Ranked by the ranking's postings, loaded first should they not be
    /// yet (a file index opened with documents and no saved postings).
    public func search(_ query: String, limit: Int, offset: Int) async throws(PostsError) -> SearchResults {
        // Read once, here: the ranking takes the terms, not the text.
        try rankingIsWhole()
        let terms = SearchQuery.terms(in: query)
        guard !terms.isEmpty else {
            return SearchResults(hits: [], total: 0, sequence: try await position().applied)
        }
        if !readsInTransaction && !ranker.isComplete { try await rankingLoadedOnce() }
        let (results, save) = try await read { db in
            let save = self.readsInTransaction ? try self.followOtherWrites(db) : false
            let stored = try self.readText(db)
            guard let ranked = try self.ranker.rank(terms: terms, keep: limit + offset) else {
                throw PostsError.failed("the search ranking is not loaded")  // a reset or a load completes it, and it stays so
            }
            let page = zip(ranked.rowids, ranked.scores).dropFirst(offset).prefix(limit).map { ($0, $1) }
            let hits = try RankedPage.hits(db, page: page, text: stored) { hits in try self.ranker.instances(in: hits, of: ranked) }
            return (SearchResults(hits: hits, total: ranked.total, totalIsExact: ranked.totalIsExact, sequence: try SearchSchema.applied(db)), save)
        }
        // Saved for the next process on this file, which takes them up instead of building them; a
        // save that fails costs that process a build, never this search (`saveRanking` names the file last).
        if save {
            do {
                _ = try await saveRanking()
            } catch {
                Self.logger.warning("ranking postings not saved beside the index", metadata: ["error": "\(error)"])
            }
        }
        return results
    }

    /// Reads on the calling thread (a worker session's): a search is work
    /// for the CPU, not a wait, and the hops to GRDB's queue and back cost
    /// two thread wake-ups. It waits only while a page of changes is being
    /// written (the index is one connection).
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(PostsError) -> T {
        do { return try readHere(body) } catch { throw .failed("search index: \(error)") }
    }

    /// Not async, so it calls GRDB's synchronous `read` (or `unsafeRead`,
    /// see `readsInTransaction`), on a connection of its own where there
    /// are `readers`.
    func readHere<T>(_ body: (Database) throws -> T) throws -> T {
        if let readers { return try gate.passing { () throws -> T in try readers.read(body) } }
        return readsInTransaction ? try queue.read(body) : try queue.unsafeRead(body)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(PostsError) -> T {
        do { return try await queue.write(body) } catch { throw .failed("search index: \(error)") }
    }

    /// Runs `body` (which answers the documents it removed and added) in a
    /// transaction, then gives them to the ranking, with the `words` of each
    /// change found meanwhile (by the change's position in the page; should
    /// that have failed, the ranking finds them here instead); `rankAside`:
    /// on a thread of its own (`writeThenRank`).
    private func writeDocuments(
        words: InBackground<[ImpactRanker.Words?]>, rankAside: Bool, _ body: @escaping @Sendable (Database) throws -> ChangedDocuments
    ) async throws(PostsError) {
        _ = try await writeThenRank(rankAside: rankAside) { db in
            let changed = try body(db)
            _ = try? words.wait()  // before the commit: no search waits on the gate for them
            return changed
        } rank: { changed in
            // What the next page's write reads: before it.
            if let text = changed.text { self.text.withLock { $0 = text } }
            self.writes.add(max(1, changed.removed.count + changed.added.count), ordering: .relaxed)
            self.ids.withLock { ids in
                for (uid, from, to) in changed.moved {
                    if let from { ids?.remove(uid, rowid: from) }
                    if let to { ids?.insert(uid, rowid: to) }
                }
            }
        } ranking: { changed in
            var found: [Int64: ImpactRanker.Words] = [:]
            if let words = try? words.wait() {
                for (document, offset) in zip(changed.added, changed.addedBy) { found[document.rowid] = words[offset] }
            }
            // A post changed twice in one page was added and removed again.
            let removed = Set(changed.removed.map(\.rowid))
            do {
                try self.ranker.apply(removed: changed.removed, added: changed.added.filter { !removed.contains($0.rowid) }, words: found)
            } catch {
                self.rankingFailed(error)
                throw error
            }
            if let generation = changed.generation { self.wrote(after: generation) }
        }
    }

    /// Runs `write` in a transaction, then `rank` and `ranking` with what
    /// it answered, still on the database's queue, so that no other write
    /// comes between. The gate is closed from just before the commit until
    /// `ranking` is done, so that no search on `readers` comes between
    /// either. `rankAside`: `ranking` runs on a thread of its own, which
    /// opens the gate when done, while the queue goes on to the next
    /// write; that write's commit waits for the gate (`SearchGate.closeToSearches`).
    /// A catch-up's writer then writes one page's documents while the page
    /// before is ranked: at a million posts each was half of the writer's
    /// time, and the writer set the catch-up's pace (docs/BENCHMARKS.md).
    private func writeThenRank<T: Sendable>(
        rankAside: Bool = false, _ write: @escaping @Sendable (Database) throws -> T, rank: @escaping @Sendable (T) throws -> Void,
        ranking: @escaping @Sendable (T) throws -> Void = { _ in }
    ) async throws(PostsError) -> T {
        do {
            return try await queue.writeWithoutTransaction { db in
                var written: T?
                var closed = false
                defer { if closed { self.gate.openToSearches() } }
                try db.inTransaction {
                    written = try write(db)
                    self.gate.closeToSearches()  // once the page ranked aside before is ranked, and searches passing have left
                    closed = true
                    return .commit
                }
                guard let written else { throw PostsError.failed("the write answered nothing") }
                try rank(written)
                guard rankAside else {
                    try ranking(written)
                    return written
                }
                closed = false  // the ranking's thread opens it
                let aside = InBackground(named: "index-ranking") {
                    defer { self.gate.openToSearches() }
                    // A failure is recorded and logged where it happens (`rankingFailed`).
                    try? ranking(written)
                }
                self.rankingAside.withLock { $0 = aside }
                return written
            }
        } catch {
            throw .failed("search index: \(error)")
        }
    }
}

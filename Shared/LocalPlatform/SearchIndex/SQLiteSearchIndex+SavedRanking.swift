import Domain
import Foundation
import GRDB
import Logging
import Search
import SystemSupport

/// The ranking's postings: taken up from the file saved beside the index,
/// loaded from its documents, saved for the next start.
extension SQLiteSearchIndex {
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
            let removed = try self.takeUp(saved, db)
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
            let (last, count) = try await read { db in try self.loadNext(after: after, atMost: pageSize, db) }
            (loadedThrough, loaded) = (last, loaded + count)
            if count > 0 { savedAt.store(-1, ordering: .relaxed) }  // more than the saved file holds
            if count < pageSize { return loaded }
            await Task.yield()
        }
    }

    /// Saves the ranking's postings beside the index (`StoredPostings`)
    /// and names the file in the index, so that the next start takes them
    /// up (`restoreRanking`). From then on the ranking reads them in place
    /// from that file, the changes applied while it was written applied to
    /// them too (`ImpactRanker.adopt`): what it built in memory of its own
    /// is given back. The file is written and read back on a thread of its
    /// own (a second or two at a million posts), not a cooperative one. Answers the bytes
    /// written; nil when there is nothing to save (no place for them, not
    /// loaded yet, or no change since the file the index names was saved
    /// or taken up).
    @discardableResult
    public func saveRanking() async throws(PostsError) -> Int? { try await saveRanking(whileWriting: {}) }

    /// `whileWriting` runs once the file is written, before it is named
    /// (a test's seam: a write that comes while a save writes, which the
    /// next start takes out or reads as it would any change after a save).
    func saveRanking(whileWriting: () async throws -> Void) async throws(PostsError) -> Int? {
        guard let postingsPath else { return nil }
        let id = UUID()
        defer { ranker.forgetSave() }
        guard let saved = try await writeCopy(id: id, to: postingsPath) else { return nil }
        do { try await whileWriting() } catch { throw .failed("\(error)") }
        try await write { db in
            try db.execute(sql: "UPDATE searchState SET postings = ? WHERE id = 1", arguments: [id.uuidString])
            self.savedAt.store(saved.writes, ordering: .relaxed)
        }
        // The file as the next start would take it up: a file that cannot be read back leaves the ranking as it is.
        do {
            let adopted = try await onThread(named: "ranking-read") { [ranker] in
                ranker.adopt(try StoredPostings.read(from: postingsPath, id: id).index, ofVersion: saved.version)
            }
            if !adopted {
                Self.logger.info("saved ranking postings not taken up: the ranking changed too much meanwhile; kept in memory until the next save")
            }
        } catch {
            Self.logger.warning("saved ranking postings not read back; kept in memory", metadata: ["file": "\(postingsPath)", "error": "\(error)"])
        }
        return saved.size
    }

    /// Writes a copy of the ranking's postings to `path` under `id`, when
    /// there is something to save; answers its size, the ranking's version
    /// and the index's writes it holds. The copy is let go on return, so
    /// that adopting the file gives back the memory they were built in.
    private func writeCopy(id: UUID, to path: String) async throws(PostsError) -> (size: Int, version: Int, writes: Int)? {
        try rankingIsWhole()  // a ranking that lost a page is not kept for the next start
        let taken = try await read { db -> (index: ImpactIndex, loadedThrough: Int64, version: Int, writes: Int)? in
            let writes = self.writes.load(ordering: .relaxed)
            guard try writes != self.savedAt.load(ordering: .relaxed) || SearchSchema.savedPostings(db) == nil, let saved = self.ranker.saved()
            else { return nil }
            return (saved.index, saved.loadedThrough, saved.version, writes)
        }
        guard let taken else { return nil }
        do {
            let size = try await onThread(named: "ranking-save") {
                try StoredPostings.write(taken.index, loadedThrough: taken.loadedThrough, id: id, to: path)
            }
            return (size, taken.version, taken.writes)
        } catch {
            throw .failed("cannot save the ranking postings: \(error)")
        }
    }

    /// The id of the saved postings' file the index names, if any.
    func savedPostingsID() async throws(PostsError) -> UUID? { try await read(SearchSchema.savedPostings) }

    /// Loads the ranking, once however many searches wait for it.
    func rankingLoadedOnce() async throws(PostsError) {
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

    /// Documents the ranking reads at once while it loads.
    public static let loadPage = 10_000

    /// A saved index taken up as the ranking: the documents removed or
    /// changed since the save taken out of it (answers how many); complete
    /// only when no document lies past those it holds (else the loading
    /// reads them, `ImpactRanker.restore`).
    func takeUp(_ saved: (index: ImpactIndex, loadedThrough: Int64), _ db: Database) throws -> Int {
        var index = saved.index
        let removed = index.keepOnly(try liveRowids(through: saved.loadedThrough, db))
        let beyond = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM document WHERE rowid > ?)", arguments: [saved.loadedThrough]) ?? false
        ranker.restore(index, loadedThrough: saved.loadedThrough, complete: !beyond)
        return removed
    }

    /// The rowids of the documents up to `rowid`.
    func liveRowids(through rowid: Int64, _ db: Database) throws -> [Int64] {
        try Int64.fetchAll(db, sql: "SELECT rowid FROM document WHERE rowid <= ?", arguments: [rowid])
    }

    /// The first `limit` documents past `rowid` given to the ranking, which
    /// is complete once fewer come: answers the last rowid read (`rowid`
    /// when none) and how many.
    func loadNext(after rowid: Int64, atMost limit: Int, _ db: Database) throws -> (last: Int64, count: Int) {
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT rowid, text FROM document WHERE rowid > ? ORDER BY rowid LIMIT ?"), arguments: [rowid, limit])
        let text = try readText(db)
        let documents: [ImpactRanker.Document] = try rows.map { row in
            let (title, content) = try text.decode(row[1])
            return (row[0], title, content)
        }
        try ranker.load(documents, through: documents.last?.rowid ?? rowid, complete: documents.count < limit)
        return (documents.last?.rowid ?? rowid, documents.count)
    }
}

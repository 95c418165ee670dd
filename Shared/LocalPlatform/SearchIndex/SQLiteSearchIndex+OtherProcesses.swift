import Domain
import GRDB
import Logging
import Search

/// Where another process may write the index file (`posts --local` beside
/// a running interface): the ranking follows the file by its count of
/// writes (`SearchSchema.generation`).
extension SQLiteSearchIndex {
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
    func followOtherWrites(_ db: Database) throws -> Bool {
        let generation = try SearchSchema.generation(db)
        guard generation != rankedGeneration.load(ordering: .relaxed) else { return false }
        var built = false
        if !ranker.isComplete {
            if let saved = savedPostings(db) {
                _ = try takeUp(saved, db)
            } else {
                ranker.unload()
                built = true
                rankingBuilds.add(1, ordering: .relaxed)
            }
        } else {
            ranker.keepOnly(try liveRowids(through: ranker.loadedThrough, db))
        }
        // What it does not hold yet, a page at a time (so a build never holds every text at once).
        var added = 0
        while true {
            let count = try loadNext(after: ranker.loadedThrough, atMost: Self.loadPage, db).count
            added += count
            if count < Self.loadPage { break }
        }
        rankedGeneration.store(generation, ordering: .relaxed)
        let save = built || added > SearchRules.catchUpBatch
        if save { savedAt.store(-1, ordering: .relaxed) }
        return save && postingsPath != nil
    }

    /// The postings saved beside the file, when it names them and they can
    /// be read; one that cannot is said (the ranking is then built from
    /// the documents, and saved again).
    private func savedPostings(_ db: Database) -> (index: ImpactIndex, loadedThrough: Int64)? {
        guard let postingsPath else { return nil }
        do {
            guard let id = try SearchSchema.savedPostings(db) else { return nil }
            return try StoredPostings.read(from: postingsPath, id: id)
        } catch {
            Self.logger.warning(
                "saved ranking postings not taken up; built from the posts", metadata: ["file": "\(postingsPath)", "error": "\(error)"])
            return nil
        }
    }

    static let logger = Logger(label: "posts.search-index")

    /// After this process's write, which found the file at `generation`:
    /// the ranking holds the write, and so the next generation, if it held
    /// the one the write found; else another process wrote since, and the
    /// next search follows it (`followOtherWrites`).
    func wrote(after generation: Int64) {
        _ = rankedGeneration.compareExchange(expected: generation, desired: generation + 1, ordering: .relaxed)
    }
}

import Domain
import LocalPlatform
import Logging
import ServiceLifecycle

/// Keeps the ranking postings saved beside the index
/// (`SQLiteSearchIndex.saveRanking`), so that a worker started again ranks at
/// once (`restore`) instead of reading every document back: at a graceful
/// stop; while running once the index has been quiet for `quiet` after at
/// least `SearchRules.compactAfter` changes (a large catch-up), so that even
/// a worker killed later starts fast (what changed after the save is made
/// good as they are taken up); and, however busy, once the postings held in
/// memory of its own pass `inMemoryBound` (`SearchRules.postingsInMemoryBeforeSave`),
/// so that they stay bounded: the ranking reads the saved ones in place.
/// Each save writes them all (a second or two at a million posts, on a
/// thread of its own), and a save while running comes at most every `quiet`.
struct RankingSave: Service {
    let index: SQLiteSearchIndex
    let logger: Logger
    var quiet: Duration = .seconds(10)
    var inMemoryBound = SearchRules.postingsInMemoryBeforeSave
    /// How often it looks.
    var every: Duration = .seconds(1)

    /// Takes up the postings saved at the last stop, before the catch-up
    /// changes anything; says in the log what became of them.
    static func restore(_ index: SQLiteSearchIndex, logger: Logger) async throws {
        let started = ContinuousClock.now
        switch try await index.restoreRanking() {
        case .restored(let removed):
            logger.info(
                "ranking restored from saved postings", metadata: ["removedSince": "\(removed)", "seconds": "\(started.duration(to: .now))"])
        case .nothingSaved: break
        case .unusable(let reason):
            logger.warning("saved ranking postings not used; loading them from the documents", metadata: ["error": "\(reason)"])
        }
    }

    func run() async throws {
        await cancelWhenGracefulShutdown { await saveWhenDue() }
        // Stopped: the services after this one in the group (the worker,
        // the sync) have stopped first, so nothing changes the index now.
        // Saved in a task of its own, which this one's cancellation (the
        // group torn down, not stopped) does not cut short.
        _ = await Task { await save(atStop: true) }.value
    }

    private func saveWhenDue() async {
        var savedAt = index.changesWritten
        var (seen, quietSince, lastSave) = (savedAt, ContinuousClock.now, ContinuousClock.now - quiet)
        while !Task.isCancelled {
            try? await Task.sleep(for: every)
            let now = index.changesWritten
            if now != seen { (seen, quietSince) = (now, .now) }
            let quietAfterMany = quietSince.duration(to: .now) >= quiet && now - savedAt >= SearchRules.compactAfter
            // A document's stems are 4-byte values, half a posting's 8 bytes.
            let heldTooMuch = index.postingsInMemory + index.stemsInMemory / 2 >= inMemoryBound
            guard quietAfterMany || heldTooMuch, lastSave.duration(to: .now) >= quiet else { continue }
            lastSave = .now
            if await save(atStop: false) { savedAt = now }
        }
    }

    /// A save while running that the stop cuts short is no failure: the
    /// stop saves them all again.
    @discardableResult
    private func save(atStop: Bool) async -> Bool {
        let started = ContinuousClock.now
        do {
            guard let bytes = try await index.saveRanking() else { return false }
            logger.info("ranking postings saved", metadata: ["bytes": "\(bytes)", "seconds": "\(started.duration(to: .now))"])
            return true
        } catch {
            if !atStop, Task.isCancelled {
                logger.debug("ranking postings' save left for the stop's", metadata: ["error": "\(error)"])
            } else {
                logger.warning("ranking postings not saved; the next start loads them from the documents", metadata: ["error": "\(error)"])
            }
            return false
        }
    }
}

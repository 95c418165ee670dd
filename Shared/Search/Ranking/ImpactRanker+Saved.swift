import Domain

/// Saving what it holds (`StoredPostings`), and taking the saved copy up
/// in its place once read back in place from the file: the changes applied
/// while the copy was written are kept for it, and applied to it.
extension ImpactRanker {
    /// The changes since a copy of `version` was taken, holding documents
    /// through `loadedThrough`.
    struct SinceSaved {
        let version: Int
        let loadedThrough: Int64
        var changes: [Change] = []
        /// About the memory `changes` take (`bytes(of:)`).
        var bytes = 0
    }

    /// Bytes of changes kept for a save's copy (`SinceSaved`), about, past
    /// which `hasRoomForChanges` says no: a writer waits for the save to end
    /// before it applies more (`SQLiteSearchIndex.apply`), so that what a
    /// save costs stays bounded however busy the worker is. A save at a
    /// million posts takes a few seconds; this holds a second or two of a
    /// fast catch-up's changes, and the others wait.
    public static let sinceSavedBytes = 32 << 20

    /// Past this many times `sinceSavedBytes` (a writer that did not wait),
    /// the changes are let go, and the save's copy is not taken up: what it
    /// holds stays in memory of its own until the next save.
    static let sinceSavedGiveUp = 4

    /// Whether a writer may apply more changes now: no save is under way,
    /// or the changes kept for it are under `sinceSavedBytes`.
    public var hasRoomForChanges: Bool { state.read { ($0.sinceSaved?.bytes ?? 0) < Self.sinceSavedBytes } }

    /// About the memory a change kept for a save takes: its texts, and the
    /// words found in them.
    static func bytes(of change: Change) -> Int {
        let documents = change.removed + change.added
        let texts = documents.reduce(0) { $0 + $1.title.utf8.count + $1.content.utf8.count + 64 }
        let words = change.words.values.reduce(0) { $0 + ($1.title.count + $1.content.count) * 24 + 64 }
        return texts + words
    }

    /// Times `adopt` applies the changes that came while it applied the
    /// ones before, before it leaves the copy.
    static let adoptRounds = 8

    /// What it holds, to save (`StoredPostings`): a copy, which changes
    /// made after do not touch, and its version (for `adopt`); nil until it
    /// holds every document. From then until `adopt` or `forgetSave`, the
    /// changes it applies are also kept (about `sinceSavedBytes`, see
    /// `hasRoomForChanges`), for `adopt` to apply to the copy as read back.
    public func saved() -> (index: ImpactIndex, loadedThrough: Int64, version: Int)? {
        state.write { state in
            guard state.complete else { return nil }
            state.sinceSaved = SinceSaved(version: state.version, loadedThrough: state.loadedThrough)
            return (state.index, state.loadedThrough, state.version)
        }
    }

    /// Keeps no more changes for a save's copy (`saved`): the save is over.
    public func forgetSave() {
        state.write { $0.sinceSaved = nil }
    }

    /// Takes `index`, the copy of version `version` (`saved`) as read back
    /// from its file, in place of what it holds: the same postings, read
    /// in place from the mapped file instead of held in memory of its own,
    /// with the changes applied since the copy was taken applied to it too
    /// (outside the lock, so queries go on meanwhile; then those that came
    /// while it did, up to `adoptRounds` times). Answers whether it did: not
    /// when something other than `apply` changed it since, or the changes
    /// outgrew `sinceSavedGiveUp` times `sinceSavedBytes`. The copy is
    /// changed on the calling thread: call it on one that may work for
    /// seconds.
    @discardableResult
    public func adopt(_ index: ImpactIndex, ofVersion version: Int) -> Bool {
        var (copy, applied, through, added) = (index, 0, Int64(0), 0)
        var adopted = false
        for _ in 0..<Self.adoptRounds {
            // The changes not yet applied to the copy; nil: it cannot be taken up.
            let pending = state.read { state -> ArraySlice<Change>? in
                guard state.complete else { return nil }
                if state.version == version && applied == 0 { return [] }
                guard let since = state.sinceSaved, since.version == version, state.version == version + since.changes.count else { return nil }
                if applied == 0 { through = since.loadedThrough }
                return since.changes[applied...]
            }
            guard let pending else { break }
            do throws(PostsError) {
                try tokenizing { tokenizer in
                    for change in pending { added += try Self.apply(change, to: &copy, loadedThrough: &through, complete: true, tokenizer) }
                }
            } catch {
                break
            }
            applied += pending.count
            adopted = state.write { state -> Bool in
                // Only when no change came meanwhile.
                guard state.complete, state.version == version + applied, copy.rows == state.index.rows else { return false }
                guard applied == 0 || state.loadedThrough == through else { return false }
                state.index = copy
                state.sinceSaved = nil
                (state.addedSinceRelease, state.addedSinceSaved) = (0, added)
                return true
            }
            if adopted { break }
        }
        if adopted { FreeMemory.giveBack() }
        return adopted
    }

    /// Postings added since it last took up a saved copy, or was emptied:
    /// those `postingsHeld` counts in memory, counted as they come (without
    /// a pass over every term).
    public var postingsAddedSinceSaved: Int { state.read { $0.addedSinceSaved } }
}

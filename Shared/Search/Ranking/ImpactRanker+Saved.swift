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
        let words = change.words.values.reduce(0) { $0 + $1.title.memory + $1.content.memory + 64 }
        return texts + words
    }

    /// Times `adopt` looks at the changes left: it applies them outside the
    /// lock while they are many, at most one round fewer, and leaves the
    /// copy when they are still many at the last.
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
    /// with the changes applied since the copy was taken applied to it too.
    /// While many are left they are applied outside the lock, so queries go
    /// on meanwhile (then those that came while it did, up to `adoptRounds`
    /// times); once about `adoptLockedBytes` or fewer are left (what a write
    /// adds between the look and the lock comes too), the rest are applied
    /// under the lock, so that writes coming all the time cannot leave the
    /// copy. Answers whether it took it up: not when something other than
    /// `apply` changed it since, or the changes outgrew `sinceSavedGiveUp`
    /// times `sinceSavedBytes`, or stayed over `adoptLockedBytes` every
    /// round. The copy is changed on the calling thread: call it on one
    /// that may work for seconds.
    @discardableResult
    public func adopt(_ index: ImpactIndex, ofVersion version: Int) -> Bool {
        var copy = Adopting(index: index, version: version)
        var adopted = false
        // The postings it replaces, let go of once the lock is: freeing
        // them held it 0.1-0.3 s at 1,000,000 long posts, queries and the
        // catch-up waiting.
        var replaced: ImpactIndex?
        do throws(PostsError) {
            for round in 1...Self.adoptRounds {
                guard let pending = state.read({ copy.pending(in: $0) }) else { break }
                guard pending.bytes > Self.adoptLockedBytes else {
                    replaced = try tokenizing { tokenizer in
                        try state.write { state -> ImpactIndex? in
                            guard let pending = copy.pending(in: state) else { return nil }
                            try copy.apply(pending, tokenizer)
                            return copy.takeUp(into: &state)
                        }
                    }
                    adopted = replaced != nil
                    break
                }
                // Outside the lock, unless no round is left to finish after it.
                guard round < Self.adoptRounds else { break }
                try tokenizing { tokenizer in try copy.apply(pending, tokenizer) }
            }
        } catch {
            adopted = false
        }
        replaced = nil
        if adopted { FreeMemory.giveBack() }
        return adopted
    }

    /// Bytes of changes (`bytes(of:)`) `adopt` applies to the copy while it
    /// holds the lock, queries waiting: about what a catch-up page's
    /// `apply` takes the lock for.
    static let adoptLockedBytes = 1 << 20

    /// A saved copy being brought up to date by `adopt`.
    struct Adopting {
        var index: ImpactIndex
        /// The version of the ranking the copy was taken from.
        let version: Int
        /// The changes kept for the save (`SinceSaved`) applied to it, and
        /// their bytes.
        var applied = 0
        var appliedBytes = 0
        /// Documents up to this rowid are in the copy, once a change is applied.
        var through: Int64 = 0
        /// Postings the changes added.
        var added = 0

        /// Changes not yet applied to the copy, their bytes, and the rowid
        /// the copy held documents through when it was taken.
        typealias Pending = (changes: ArraySlice<Change>, bytes: Int, loadedThrough: Int64)

        /// What is not yet applied to the copy; nil: it cannot be taken up.
        func pending(in state: State) -> Pending? {
            guard state.complete else { return nil }
            if state.version == version && applied == 0 { return ([], 0, state.loadedThrough) }
            guard let since = state.sinceSaved, since.version == version, state.version == version + since.changes.count else { return nil }
            return (since.changes[applied...], since.bytes - appliedBytes, since.loadedThrough)
        }

        mutating func apply(_ pending: Pending, _ tokenizer: ImpactTokenizer) throws {
            if applied == 0 { through = pending.loadedThrough }
            for change in pending.changes {
                added += try ImpactRanker.apply(change, to: &index, loadedThrough: &through, complete: true, tokenizer)
            }
            applied += pending.changes.count
            appliedBytes += pending.bytes
        }

        /// Puts the copy in `state`'s place, when it holds what `state` does;
        /// answers the postings it replaced (nil: not taken up).
        func takeUp(into state: inout State) -> ImpactIndex? {
            guard state.complete, state.version == version + applied, index.rows == state.index.rows else { return nil }
            guard applied == 0 || state.loadedThrough == through else { return nil }
            let replaced = state.index
            state.index = index
            state.sinceSaved = nil
            (state.addedSinceRelease, state.addedSinceSaved) = (0, added)
            return replaced
        }
    }

    /// Postings added since it last took up a saved copy, or was emptied:
    /// those `postingsHeld` counts in memory, counted as they come (without
    /// a pass over every term).
    public var postingsAddedSinceSaved: Int { state.read { $0.addedSinceSaved } }
}

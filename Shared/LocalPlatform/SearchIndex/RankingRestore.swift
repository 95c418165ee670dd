/// What became of the ranking postings saved beside an index at its last
/// stop (`SQLiteSearchIndex.restoreRanking`).
public enum RankingRestore: Sendable, Equatable {
    /// Taken up: queries of words are ranked by them at once. `removed`:
    /// documents they held that the index no longer does (removed or
    /// changed after the save), taken out of them.
    case restored(removed: Int)
    /// None to take up: never saved, or saved before the index was emptied.
    case nothingSaved
    /// The file the index names could not be read (the reason); the
    /// postings are loaded from the documents instead.
    case unusable(String)

    public var isRestored: Bool {
        if case .restored = self { true } else { false }
    }
}

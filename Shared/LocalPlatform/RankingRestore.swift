/// What became of the ranking postings saved beside an index at its last
/// stop (`FTS5SearchIndex.restoreRanking`).
public enum RankingRestore: Sendable, Equatable {
    /// Taken up: queries of words are ranked by them at once.
    case restored
    /// None to take up: never saved, or the index changed since.
    case nothingSaved
    /// The file the index names could not be read (the reason); the
    /// postings are loaded from the documents instead.
    case unusable(String)
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

public enum SearchRules {
    public static let maxQueryLength = 500
    public static let maxOffset = 10_000
    /// How many completions an unfinished last word stands for (words and
    /// stems that start with it, `ImpactQuery`): its most common ones, so
    /// that a word's first letter costs no more than 8 words.
    public static let prefixCompletions = 8
    /// A catch-up that applied at least this many changes (a new worker
    /// building its index, an import) ends by compacting the index: its
    /// structures trimmed to what they hold, the memory they grew into
    /// given back.
    public static let compactAfter = 10_000
    /// A catch-up writes the pages it fetched in one transaction of at
    /// most this many changes or `catchUpBatchBytes` of text (at least one
    /// page), and fetches the next batch meanwhile (`IndexSync`): fewer
    /// commits, each of them a sync of the file (docs/BENCHMARKS.md). So a catch-up holds
    /// at most two batches, each at most 4 MB of text and one page more.
    public static let catchUpBatch = 5_000
    public static let catchUpBatchBytes = 4 << 20
    /// A search worker saves its ranking postings, however busy, once this
    /// many of them are in memory of its own (8 bytes each: 64 MB; added
    /// since its last save, or built), and from then on reads them in place
    /// from the file (docs/OPERATIONS.md): what it holds in memory stays
    /// bounded by about this, plus what comes while a save is written and
    /// in the 10 s a save waits after the last one (`RankingSave.quiet`):
    /// several times this in a new replica, which takes posts fast.
    public static let postingsInMemoryBeforeSave = 8_000_000

    /// The limit and offset a search may ask for, or the one that is wrong.
    public static func validated(query: String, limit: Int?, offset: Int?) throws(PostsError) -> (limit: Int, offset: Int) {
        guard query.count <= maxQueryLength else {
            throw .invalid("q", .tooLong(max: maxQueryLength, actual: query.count, unit: .characters))
        }
        if query.utf8.contains(0) { throw .invalid("q", .forbiddenCharacter(0)) }
        let limit = try PostRules.validatedLimit(limit)
        let offset = offset ?? 0
        guard (0...maxOffset).contains(offset) else {
            throw .invalid("offset", .outOfRange(min: 0, max: Int64(maxOffset), actual: "\(offset)"))
        }
        return (limit, offset)
    }
}

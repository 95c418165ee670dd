import HeapModule

/// A query's best matches in an `ImpactIndex`: every group of terms must
/// match, and a match scores the sum of its groups' scores, each the best
/// of its terms there, with bm25 as FTS5's. A plain word is a group of one
/// stem: its score is FTS5's to the bit. An unfinished word is the group
/// of its completions, scored by the best one the post holds.
///
/// Documents are visited in rowid order, each group's postings in step. Once
/// the page is full and `exactCount` matches are counted, two things are
/// skipped, because no document there can enter the page (a later rowid
/// loses a tie):
/// - a tier whose best, with the other groups' best, cannot beat the page's
///   worst: it no longer proposes documents, it is only read for the ones
///   the others propose (max-score);
/// - a stretch of rowids where the blocks' bounds add up to no more than
///   the page's worst (block-max).
/// A common word's page then costs about its top tiers, not its every
/// match; the count of matches is then a lower bound. The tiers with the
/// best bounds are scored first when few (`prime`): their documents
/// raise the page's worst at once, and the search leaves them out.
enum ImpactSearch {
    struct Result {
        /// The best `keep` matches, best first; equal scores in rowid order.
        var ranked: [Ranked]
        /// Matches counted: all of them when `isExact`.
        var total: Int
        var isExact: Bool
        /// Matches scored: what the query cost, beside `total`.
        var scored: Int
    }

    struct Member {
        var cursor: PostingCursor
        /// No document of this tier scores above this in this query.
        let bound: Double
    }

    static func best(_ keep: Int, of groups: [[Int32]], in index: ImpactIndex, exactCount: Int) -> Result {
        let average = index.averageLength
        var byGroup = [[Member]](repeating: [], count: groups.count)
        var stems = Set<Int32>()
        for (group, terms) in groups.enumerated() {
            for stem in terms where Int(stem) < index.postings.count {
                let term = index.postings[Int(stem)]
                let inverseFrequency = BM25.inverseFrequency(rows: index.rows, hits: Int64(term.documents))
                stems.insert(stem)
                for tier in term.tiers where !tier.rowids.isEmpty {
                    let cursor = PostingCursor(tier, inverseFrequency: inverseFrequency)
                    byGroup[group].append(Member(cursor: cursor, bound: inverseFrequency * tier.bound(average: average)))
                }
            }
        }
        guard keep > 0, !groups.isEmpty, byGroup.allSatisfy({ !$0.isEmpty }) else {
            return Result(ranked: [], total: 0, isExact: true, scored: 0)
        }
        // Worth it only where skipping may start: past `exactCount` matches.
        let fewest = byGroup.map { $0.reduce(0) { $0 + $1.cursor.postings.rowids.count } }.min() ?? 0
        let primed = fewest > exactCount ? prime(keep, groups: byGroup, lengths: index.lengths, average: average) : Primed()
        var best = Heap<Ranked>()
        for match in primed.matches { best.offer(match, keeping: keep) }
        var matches = primed.matches.count
        for group in primed.covered.indices { byGroup[group] = zip(byGroup[group], primed.covered[group]).filter { !$0.1 }.map(\.0) }
        // A group whose members were all scored: every match holds one of them, and so was scored.
        guard byGroup.allSatisfy({ !$0.isEmpty }) else {
            return Result(ranked: best.unordered.sorted(by: >), total: matches, isExact: true, scored: matches)
        }
        // Each group's members side by side, the best bound first.
        var members: [Member] = []
        var ranges: [Range<Int>] = []
        for group in byGroup.indices {
            let first = members.count
            members += byGroup[group].sorted { $0.bound > $1.bound }
            ranges.append(first..<members.count)
        }
        let singleStem = groups.map { Set($0.filter { Int($0) < index.postings.count }).count == 1 }
        let pruned = pass(
            keep, members: &members, ranges: ranges, singleStem: singleStem, primed: primed.rowids, lengths: index.lengths, average: average,
            exactCount: exactCount,
            best: &best, matches: &matches)
        // One stem: its documents are counted as it changes.
        let single = groups.count == 1 && stems.count == 1
        return Result(
            ranked: best.unordered.sorted(by: >),
            total: single ? index.postings[Int(stems.first!)].documents : matches,
            isExact: single || !pruned, scored: matches)
    }
}

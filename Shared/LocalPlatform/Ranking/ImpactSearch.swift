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

    /// Block-max is checked at every document while it skips; each time it
    /// does not, the documents until the next check double, up to this.
    static let blockBackoffLimit = 64

    /// A group's state in the pass over rowids.
    struct Lane {
        /// Its first essential document as last found, and the best bound
        /// of a member holding it.
        var first: UInt32
        var holder: Double
        /// Its bound at the pivot, and its score there.
        var bound: Double
        var score: Double
        /// Its members that may still propose a document: the first so
        /// many from `start`, the best bound first.
        var essential: Int
        let start: Int
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
        // Each group's members side by side, the best bound first; and each
        // member's current rowid in an array of its own, which the search
        // reads for every document it steps on (a member is far larger).
        var members: [Member] = []
        var ranges: [Range<Int>] = []
        for group in byGroup.indices {
            let first = members.count
            members += byGroup[group].sorted { $0.bound > $1.bound }
            ranges.append(first..<members.count)
        }
        var heads = members.map(\.cursor.rowid)
        var nextPrimed = 0
        let groupBests = ranges.map { members[$0.lowerBound].bound }
        let bestSum = groupBests.reduce(0, +)
        // Each group's first essential document as last found (`find`), the
        // best bound of a member holding it, and the group's bound there.
        var lanes = ranges.map { Lane(first: 0, holder: 0, bound: 0, score: 0, essential: $0.count, start: $0.lowerBound) }
        var (blockWait, blockBackoff) = (0, 1)
        // The groups of fewest members scored first: a document that cannot
        // reach the page is left before the costliest group is read.
        let scoringOrder = ranges.indices.sorted { (ranges[$0].count, $0) < (ranges[$1].count, $1) }
        var worst = -Double.infinity
        var pruned = false
        var target: UInt32 = 0

        // In place, with no check that the arrays are not shared at each step.
        members.withUnsafeMutableBufferPointer { members in
            heads.withUnsafeMutableBufferPointer { heads in
                lanes.withUnsafeMutableBufferPointer { lanes in
                    index.lengths.withUnsafeBufferPointer { lengths in
                        /// Moves `member` to its first posting at or after `rowid`; answers whether it holds `rowid`.
                        @inline(__always) func reach(_ member: Int, _ rowid: UInt32) -> Bool {
                            if heads[member] < rowid {
                                members[member].cursor.advance(to: rowid)
                                heads[member] = members[member].cursor.rowid
                            }
                            return heads[member] == rowid
                        }
                        /// Each group's first essential document at or after `rowid`,
                        /// and the best bound of the essential members holding it (in
                        /// bound order, the first; a member left out holds none better).
                        @inline(__always) func find(_ group: Int, from rowid: UInt32) {
                            var (first, holder) = (PostingCursor.end, 0.0)
                            let start = lanes[group].start
                            for member in start..<(start + lanes[group].essential) {
                                _ = reach(member, rowid)
                                if heads[member] < first { (first, holder) = (heads[member], members[member].bound) }
                            }
                            (lanes[group].first, lanes[group].holder) = (first, holder)
                        }
                        for group in ranges.indices { find(group, from: 0) }
                        search: while true {
                            // The groups in turn, each read only when its first document
                            // lies before the pivot, until all of them hold the pivot.
                            var pivot = target
                            var (agreed, group) = (0, 0)
                            while agreed < ranges.count {
                                if lanes[group].first < pivot { find(group, from: pivot) }
                                let first = lanes[group].first
                                if first == PostingCursor.end { break search }
                                if first > pivot { (pivot, agreed) = (first, 1) } else { agreed += 1 }
                                group = group + 1 == ranges.count ? 0 : group + 1
                            }
                            target = pivot + 1
                            for group in lanes.indices { lanes[group].bound = lanes[group].holder }
                            // Block-max: whether the blocks here, with each group's best,
                            // leave every document up to the first block's end below the
                            // page. Checked again at once after it skipped, less and less
                            // often (up to every `blockBackoffLimit` documents) while it did not.
                            if worst > -.infinity {
                                if blockWait > 0 {
                                    blockWait -= 1
                                } else {
                                    var bound = 0.0
                                    var blockEnd = PostingCursor.end
                                    for group in ranges.indices {
                                        let range = ranges[group]
                                        let count = lanes[group].essential
                                        var groupBound = count < range.count ? members[range.lowerBound + count].bound : 0
                                        for member in range.lowerBound..<(range.lowerBound + count) {
                                            groupBound = max(groupBound, members[member].cursor.bound(average: average))
                                            blockEnd = min(blockEnd, members[member].cursor.blockLast)
                                        }
                                        lanes[group].bound = min(lanes[group].bound, groupBound)
                                        bound += groupBound
                                    }
                                    if bound <= worst {
                                        pruned = true
                                        blockBackoff = 1
                                        if blockEnd == PostingCursor.end { break search }
                                        target = max(blockEnd, pivot) + 1
                                        continue search
                                    }
                                    blockWait = blockBackoff
                                    blockBackoff = min(2 * blockBackoff, Self.blockBackoffLimit)
                                }
                            }
                            while nextPrimed < primed.rowids.count, primed.rowids[nextPrimed] < pivot { nextPrimed += 1 }
                            if nextPrimed < primed.rowids.count, primed.rowids[nextPrimed] == pivot { continue }
                            let length = Int(pivot) < lengths.count ? lengths[Int(pivot)] : -1
                            guard length >= 0 else { continue }
                            matches += 1
                            // What the groups not yet scored may still add: once the
                            // document cannot pass the page's worst even with it (by
                            // more than any rounding), it is left; a match all the
                            // same, as every group holds it. Summed in the query's
                            // order, as FTS5 does, so a score is FTS5's to the bit.
                            var rest = lanes.reduce(0) { $0 + $1.bound }
                            var partial = 0.0
                            for group in scoringOrder {
                                var groupScore = 0.0
                                // Best bound first: once a member's bound is no more than
                                // what the group scores already, none after it adds anything.
                                for member in ranges[group] where members[member].bound > groupScore {
                                    guard reach(member, pivot) else { continue }
                                    let frequency = Double(members[member].cursor.frequency)
                                    let part = BM25.part(frequency: frequency, length: Double(length), averageLength: average)
                                    groupScore = max(groupScore, members[member].cursor.inverseFrequency * part)
                                }
                                lanes[group].score = groupScore
                                partial += groupScore
                                rest -= lanes[group].bound
                                if partial + rest < worst - abs(worst) * 1e-12 { continue search }
                            }
                            let score = lanes.reduce(0) { $0 + $1.score }
                            let ranked = Ranked(score: score, rowid: Int64(pivot))
                            if !best.offer(ranked, keeping: keep).kept, worst > -.infinity || matches < exactCount {
                                // The page did not change; once the count is
                                // complete it is taken all the same, or a page
                                // found early would never be.
                                continue
                            }
                            guard best.count == keep, matches >= exactCount, let least = best.min else { continue }
                            // A document scored ahead may lie past the pivot, and
                            // so lose a tie to one met later: once any was, a
                            // document that only equals the worst is still read.
                            let floor = least.score - (primed.rowids.isEmpty ? 0 : abs(least.score) * 1e-12)
                            guard floor > worst else { continue }
                            worst = floor
                            // A member whose best, with every other group's best, cannot beat the worst proposes nothing more.
                            for group in ranges.indices {
                                let limit = worst - (bestSum - groupBests[group])
                                let essential = members[ranges[group]].prefix { $0.bound > limit }.count
                                lanes[group].essential = essential
                                lanes[group].first = 0  // found again among the members left
                                if essential < ranges[group].count { pruned = true }
                                if essential == 0 { break search }
                            }
                        }
                    }
                }
            }
        }
        // One stem: its documents are counted as it changes.
        let single = groups.count == 1 && stems.count == 1
        return Result(
            ranked: best.unordered.sorted(by: >),
            total: single ? index.postings[Int(stems.first!)].documents : matches,
            isExact: single || !pruned, scored: matches)
    }
}

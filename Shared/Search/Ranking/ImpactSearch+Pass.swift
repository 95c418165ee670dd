import HeapModule

extension ImpactSearch {
    /// Block-max is checked at every document while it skips; each time it
    /// does not, the documents until the next check double, up to this.
    static let blockBackoffLimit = 64

    /// A group's state in the pass over rowids.
    struct Lane {
        /// Its first essential document as last found, and the best bound
        /// of a member holding it.
        var first: UInt32
        var holder: Double
        /// That member.
        var holdingMember: Int
        /// Its bound at the pivot, and its score there.
        var bound: Double
        var score: Double
        /// Its members that may still propose a document: the first so
        /// many from `start`, the best bound first.
        var essential: Int
        let start: Int
    }

    /// The search in rowid order after the priming (`best`): the documents
    /// every group holds, each scored unless its bounds leave it below the
    /// page, the page kept in `best` and the matches counted in `matches`.
    /// `members`: each group's, side by side, the best bound first, a
    /// group's in `ranges`; `primed`: the documents scored ahead, in rowid
    /// order. Answers whether any were skipped (the count is then a bound).
    static func pass(
        _ keep: Int, members: inout [Member], ranges: [Range<Int>], singleStem: [Bool], primed: [UInt32], lengths: ContiguousArray<Int32>,
        average: Double,
        exactCount: Int, best: inout Heap<Ranked>, matches: inout Int
    ) -> Bool {
        // Each member's current rowid in an array of its own, which the
        // search reads for every document it steps on (a member is far larger).
        var heads = members.map(\.cursor.rowid)
        var nextPrimed = 0
        let groupBests = ranges.map { members[$0.lowerBound].bound }
        let bestSum = groupBests.reduce(0, +)
        // Each group's first essential document as last found (`find`), the
        // best bound of a member holding it, and the group's bound there.
        var lanes = ranges.map { Lane(first: 0, holder: 0, holdingMember: 0, bound: 0, score: 0, essential: $0.count, start: $0.lowerBound) }
        var (blockWait, blockBackoff) = (0, 1)
        // The groups of fewest members scored first: a document that cannot
        // reach the page is left before the costliest group is read.
        let scoringOrder = ranges.indices.sorted { (ranges[$0].count, $0) < (ranges[$1].count, $1) }
        // The groups in the order they are lined up at a document: those
        // whose essential members hold the fewest postings first. Once the
        // page is full, a document whose groups lined up so far, with the
        // best of those not yet, cannot reach the page is left before the
        // others are read (the commonest word's many tiers, most often).
        var alignOrder = Array(ranges.indices)
        var unalignedBest = [Double](repeating: 0, count: ranges.count + 1)
        var worst = -Double.infinity
        var pruned = false
        var target: UInt32 = 0

        // In place, with no check that the arrays are not shared at each step.
        members.withUnsafeMutableBufferPointer { members in
            heads.withUnsafeMutableBufferPointer { heads in
                lanes.withUnsafeMutableBufferPointer { lanes in
                    lengths.withUnsafeBufferPointer { lengths in
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
                            var (first, holder, holding) = (PostingCursor.end, 0.0, 0)
                            let start = lanes[group].start
                            for member in start..<(start + lanes[group].essential) {
                                _ = reach(member, rowid)
                                if heads[member] < first { (first, holder, holding) = (heads[member], members[member].bound, member) }
                            }
                            (lanes[group].first, lanes[group].holder, lanes[group].holdingMember) = (first, holder, holding)
                        }
                        /// `alignOrder` and `unalignedBest` for the essential members now.
                        func order() {
                            let postings = ranges.indices.map { group in
                                (lanes[group].start..<(lanes[group].start + lanes[group].essential)).reduce(0) {
                                    $0 + members[$1].cursor.postings.rowids.count
                                }
                            }
                            alignOrder = ranges.indices.sorted { (postings[$0], $0) < (postings[$1], $1) }
                            for position in alignOrder.indices.reversed() {
                                unalignedBest[position] = unalignedBest[position + 1] + members[ranges[alignOrder[position]].lowerBound].bound
                            }
                        }
                        for group in ranges.indices { find(group, from: 0) }
                        search: while true {
                            // The groups in `alignOrder`, each read only when its first
                            // document lies before the pivot, until all of them hold the
                            // pivot. Once the page is full, each group lined up adds its
                            // score there (exact for a group of one stem, else its
                            // holder's bound): a pivot that cannot reach the page with the
                            // best of the groups not yet read is left at once. On the man
                            // pages, `to with command` read 1,034 documents whole instead
                            // of 19,398, in 2.6 ms instead of 3.4 (docs/BENCHMARKS.md).
                            var pivot = target
                            var position = 0
                            var lined = 0.0
                            while position < alignOrder.count {
                                let group = alignOrder[position]
                                if lanes[group].first < pivot { find(group, from: pivot) }
                                let first = lanes[group].first
                                if first == PostingCursor.end { break search }
                                if first > pivot {
                                    (pivot, position, lined) = (first, 0, 0)
                                    continue
                                }
                                position += 1
                                guard worst > -.infinity else { continue }
                                // A group of one stem holds a document in one member: its score there, exactly.
                                if singleStem[group] {
                                    let length = Int(pivot) < lengths.count ? lengths[Int(pivot)] : -1
                                    guard length >= 0 else {  // removed: no match, so nothing left uncounted
                                        (pivot, position, lined) = (pivot + 1, 0, 0)
                                        continue
                                    }
                                    lined += members[lanes[group].holdingMember].cursor.score(length: Double(length), average: average)
                                } else {
                                    lined += lanes[group].holder
                                }
                                if lined + unalignedBest[position] < worst - abs(worst) * 1e-12 {
                                    pruned = true
                                    (pivot, position, lined) = (pivot + 1, 0, 0)
                                }
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
                            while nextPrimed < primed.count, primed[nextPrimed] < pivot { nextPrimed += 1 }
                            if nextPrimed < primed.count, primed[nextPrimed] == pivot { continue }
                            let length = Int(pivot) < lengths.count ? lengths[Int(pivot)] : -1
                            guard length >= 0 else { continue }
                            matches += 1
                            // What the groups not yet scored may still add: once the
                            // document cannot pass the page's worst even with it (by
                            // more than any rounding), it is left; a match all the
                            // same, as every group holds it. Summed in the query's
                            // order, as FTS5 does, so a score is FTS5's to the bit.
                            var rest = lanes.reduce(0) { $0 + $1.bound }
                            if rest < worst - abs(worst) * 1e-12 { continue search }  // the bounds alone leave it
                            var partial = 0.0
                            for group in scoringOrder {
                                var groupScore = 0.0
                                // Best bound first: once a member's bound is no more than
                                // what the group scores already, none after it adds anything.
                                for member in ranges[group] where members[member].bound > groupScore {
                                    guard reach(member, pivot) else { continue }
                                    groupScore = max(groupScore, members[member].cursor.score(length: Double(length), average: average))
                                }
                                lanes[group].score = groupScore
                                partial += groupScore
                                rest -= lanes[group].bound
                                if partial + rest < worst - abs(worst) * 1e-12 { continue search }
                            }
                            let score = lanes.reduce(0) { $0 + $1.score }
                            let ranked = Ranked(score: score, rowid: Int64(pivot))
                            if !best.offer(ranked, keeping: keep), worst > -.infinity || matches < exactCount {
                                // The page did not change; once the count is
                                // complete it is taken all the same, or a page
                                // found early would never be.
                                continue
                            }
                            guard best.count == keep, matches >= exactCount, let least = best.min else { continue }
                            // A document scored ahead may lie past the pivot, and
                            // so lose a tie to one met later: once any was, a
                            // document that only equals the worst is still read.
                            let floor = least.score - (primed.isEmpty ? 0 : abs(least.score) * 1e-12)
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
                            order()
                        }
                    }
                }
            }
        }
        return pruned
    }
}

extension ImpactSearch {
    /// Documents scored ahead of the search (`prime`): this many per hit
    /// kept, at most `primingMost`.
    static let primingPerHit = 16
    static let primingMost = 4_096

    /// What `prime` scored: every document of the members it covered.
    struct Primed {
        /// The documents it read, in rowid order: the search skips them.
        var rowids: [UInt32] = []
        /// Those that match, with their scores.
        var matches: [Ranked] = []
        /// By group, whether each member's every document is among `rowids`.
        var covered: [[Bool]] = []
    }

    /// Scores ahead of the search the documents of the members with the
    /// best bounds, whole members only, as many as fit in `most`. Where a
    /// page's documents are few and far apart (a rare completion of a
    /// common prefix beside common words), the search found them only as
    /// it met them in rowid order, and scored every match meanwhile; and
    /// a rare member's bound, the best of its group, kept the others from
    /// being skipped. Once its documents are scored here, the search
    /// leaves that member out: its group's bound is then the next one's.
    static func prime(_ keep: Int, groups: [[Member]], lengths: ContiguousArray<Int32>, average: Double) -> Primed {
        let most = min(keep * primingPerHit, primingMost)
        var primed = Primed(covered: groups.map { [Bool](repeating: false, count: $0.count) })
        let byBound = groups.indices.flatMap { group in groups[group].indices.map { (group, $0) } }
            .sorted { groups[$0.0][$0.1].bound > groups[$1.0][$1.1].bound }
        var rowids: Set<UInt32> = []
        for (group, member) in byBound {
            let postings = groups[group][member].cursor.postings.rowids
            guard rowids.count + postings.count <= most else { break }
            rowids.formUnion(postings)
            primed.covered[group][member] = true
        }
        primed.rowids = rowids.sorted()
        var cursors = groups.map { $0.map(\.cursor) }
        candidates: for rowid in primed.rowids {
            guard Int(rowid) < lengths.count, lengths[Int(rowid)] >= 0 else { continue }
            let length = Double(lengths[Int(rowid)])
            var score = 0.0
            for group in cursors.indices {
                // As the search scores a group: its best member there.
                var groupScore: Double?
                for member in cursors[group].indices {
                    cursors[group][member].advance(to: rowid)
                    guard cursors[group][member].rowid == rowid else { continue }
                    groupScore = max(groupScore ?? 0, cursors[group][member].score(length: length, average: average))
                }
                guard let groupScore else { continue candidates }
                score += groupScore
            }
            primed.matches.append(Ranked(score: score, rowid: Int64(rowid)))
        }
        return primed
    }
}

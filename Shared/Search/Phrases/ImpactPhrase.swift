import HeapModule

/// A query of one phrase of several words, ranked as FTS5's bm25 ranks it,
/// without reading every match. Its one inverse frequency is the same for
/// every match, so the page is the documents whose weighted count of the
/// phrase scores the best bm25 part; a document's count is found in its
/// stems (`DocumentStems`; a check).
///
/// A phrase is never in a document more often than its least frequent
/// word is, in any column: so the bm25 part of that least count bounds
/// the document's score. The documents its rarest words hold (at most
/// `boundingWords` of them: each but the one of fewest documents, the
/// driver, whose postings are read, asked about as `RarestWords` says) are checked best bound
/// first, tier by tier of the driver (a tier's bound bounds every document
/// after it), and once the page's worst is above every bound left, the
/// rest is skipped. A phrase's other words only make it rarer: a check
/// finds them. So however long the phrase, a query builds at most
/// `boundingWords - 1` bitsets of a bit per rowid (125 KB each at a million
/// documents) and reads as many words' postings.
///
/// The count: every match is counted when every document holding the
/// rarest words was checked; else, when at most `exactChecks` documents
/// hold them, those not yet checked are checked to count them. Past that,
/// the count is the matches found, a lower bound (`isExact` false), and
/// the inverse frequency of the scores is taken from it.
enum ImpactPhrase {
    /// The most of a phrase's words, the rarest, whose documents are read.
    static let boundingWords = 4

    /// A document holding the rarest words, to check, by the bound of its score.
    private struct Candidate: Comparable {
        var ranked: Ranked
        /// Whether the bound is the least count's (else the driver's alone).
        var refined: Bool

        static func < (lhs: Candidate, rhs: Candidate) -> Bool { lhs.ranked < rhs.ranked }
    }

    /// `phrase`: its stems, in order, each one the index knows; a
    /// document's weighted count of it is found in its stems
    /// (`DocumentStems.count(of:in:)`).
    static func best(_ keep: Int, phrase: PackedPhrase, in index: ImpactIndex, exactChecks: Int) -> ImpactSearch.Result {
        let distinct = Array(Set(phrase.stems))
        guard keep > 0, !distinct.isEmpty, distinct.allSatisfy({ Int($0) < index.postings.count }) else {
            return ImpactSearch.Result(ranked: [], total: 0, isExact: true, scored: 0)
        }
        let terms = distinct.map { index.postings[Int($0)] }.sorted { $0.documents < $1.documents }
        guard let driver = terms.first, driver.documents > 0 else { return ImpactSearch.Result(ranked: [], total: 0, isExact: true, scored: 0) }
        let average = index.averageLength
        let lengths = index.lengths
        let others = Array(terms.dropFirst().prefix(Self.boundingWords - 1))
        let held = RarestWords.of(driver: driver, others: others, lengths: lengths)
        var search = Search(keep: keep, average: average, phrase: phrase, stems: index.documentStems)
        // The driver's tiers by index, read in place (a copy of a tier retains and releases seven references).
        let tiers = driver.tiers.indices.filter { !driver.tiers[$0].rowids.isEmpty }.map { ($0, driver.tiers[$0].bound(average: average)) }
            .sorted { $0.1 > $1.1 }
        var skipped = false
        tiers: for (position, (tierIndex, tierBound)) in tiers.enumerated() {
            if let worst = search.worst, tierBound < worst.score {
                skipped = true
                break tiers
            }
            for block in 0..<driver.tiers[tierIndex].blockCount {
                if let worst = search.worst, driver.tiers[tierIndex].bound(of: block, average: average) < worst.score {
                    skipped = true
                    continue
                }
                let end = min((block + 1) * TermPostings.blockSize, driver.tiers[tierIndex].rowids.count)
                for posting in (block * TermPostings.blockSize)..<end {
                    let rowid = driver.tiers[tierIndex].rowids[posting]
                    guard held.holdsAll(rowid, lengths) else { continue }
                    let length = lengths[Int(rowid)]
                    // Bounded by the least count of the phrase's words where it was looked up already.
                    let walked = held.leastCount(rowid)
                    let least = min(walked ?? .max, driver.tiers[tierIndex].frequencies[posting])
                    let bound = BM25.part(frequency: Double(least), length: Double(length), averageLength: average)
                    let candidate = Candidate(ranked: Ranked(score: bound, rowid: Int64(rowid)), refined: walked != nil || others.isEmpty)
                    if let worst = search.worst, !(worst < candidate.ranked) {
                        skipped = true
                        continue
                    }
                    search.pending.insert(candidate)
                }
            }
            // What no document of the tiers after can beat is checked now.
            let next = position + 1 < tiers.count ? tiers[position + 1].1 : -Double.infinity
            skipped = search.settle(atLeast: next, others: others, lengths: lengths) || skipped
        }
        skipped = search.settle(atLeast: -.infinity, others: others, lengths: lengths) || skipped
        var isExact = !skipped
        if skipped, let unchecked = Self.candidates(of: driver, held: held, lengths: lengths, atMost: exactChecks) {
            for rowid in unchecked where !search.checkedRowids.contains(rowid) { search.check(rowid, length: lengths[Int(rowid)]) }
            isExact = true
        }
        let inverseFrequency = BM25.inverseFrequency(rows: index.rows, hits: Int64(search.matches))
        let ranked = search.best.unordered.map { Ranked(score: inverseFrequency * $0.score, rowid: $0.rowid) }.sorted(by: >)
        return ImpactSearch.Result(ranked: ranked, total: search.matches, isExact: isExact, scored: search.checkedRowids.count)
    }

    /// The page so far, the candidates not yet checked, and what was checked.
    private struct Search {
        let keep: Int
        let average: Double
        /// The phrase, and where each document's count of it is found
        /// (held here, so a check reads them in place).
        let phrase: PackedPhrase
        let stems: DocumentStems
        /// The best bm25 parts found (the inverse frequency comes last).
        var best = Heap<Ranked>()
        var pending = Heap<Candidate>()
        var checkedRowids = Set<UInt32>()
        var matches = 0

        /// The page's worst, once it is full.
        var worst: Ranked? { best.count == keep ? best.min : nil }

        mutating func check(_ rowid: UInt32, length: Int32) {
            guard checkedRowids.insert(rowid).inserted else { return }
            let found = stems.count(of: phrase, in: Int(rowid))
            guard found > 0 else { return }
            matches += 1
            best.offer(
                Ranked(score: BM25.part(frequency: Double(found), length: Double(length), averageLength: average), rowid: Int64(rowid)), keeping: keep
            )
        }

        /// Checks the candidates bounded at `ceiling` or above, best first
        /// (one bounded by the driver alone is bounded anew by its least
        /// count, and waits its turn again). Answers whether any was left
        /// because it could no longer reach the page.
        mutating func settle(atLeast ceiling: Double, others: [TermTiers], lengths: ContiguousArray<Int32>) -> Bool {
            while let top = pending.max, top.ranked.score >= ceiling {
                if let worst, !(worst < top.ranked) {
                    pending = Heap()
                    return true
                }
                pending.removeMax()
                let rowid = UInt32(top.ranked.rowid)
                let length = lengths[Int(rowid)]
                if top.refined {
                    check(rowid, length: length)
                    continue
                }
                var least = UInt32.max
                for term in others { least = min(least, term.frequency(of: rowid) ?? .max) }
                let driver = top.ranked.score
                let bound = min(driver, BM25.part(frequency: Double(least), length: Double(length), averageLength: average))
                pending.insert(Candidate(ranked: Ranked(score: bound, rowid: top.ranked.rowid), refined: true))
            }
            return false
        }
    }

    /// Where `phrase` begins in a column's stems (overlapping ones each
    /// count, as in FTS5).
    static func starts(of phrase: [Int32], in stems: [Int32?]) -> [Int] {
        guard let first = phrase.first, stems.count >= phrase.count else { return [] }
        return (0...(stems.count - phrase.count)).filter { start in
            stems[start] == first && phrase.indices.dropFirst().allSatisfy { stems[start + $0] == phrase[$0] }
        }
    }

    /// Every live document of `driver` that holds the other words `held`
    /// tells of, or nil once there are more than `limit` of them.
    private static func candidates(of driver: TermTiers, held: RarestWords, lengths: ContiguousArray<Int32>, atMost limit: Int) -> [UInt32]? {
        var found: [UInt32] = []
        for tier in driver.tiers {
            for rowid in tier.rowids where held.holdsAll(rowid, lengths) {
                found.append(rowid)
                if found.count > limit { return nil }
            }
        }
        return found
    }
}

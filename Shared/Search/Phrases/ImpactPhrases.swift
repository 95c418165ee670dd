import HeapModule

/// A query with a phrase of several words beside other terms (or several
/// phrases), ranked as FTS5's bm25 ranks it. A phrase's inverse frequency
/// counts every document that holds it: so every document that holds all
/// the words of one of its phrases is checked (`counts`: its weighted count
/// of each phrase, found in its stems, `DocumentStems`), and every match is
/// scored. Its cost is those checks: the documents that hold a phrase's words, which
/// a phrase of rare words keeps few, and a phrase of common words does not
/// (`"of the" file`; a phrase alone is bounded by its page, `ImpactPhrase`).
/// The count of matches is always exact.
enum ImpactPhrases {
    /// `terms`: the query's, in order (at least one a phrase).
    /// `counts`: a document's weighted count of each phrase of `terms`, in
    /// their order, by rowid (zeros: it holds none).
    static func best<Failure: Error>(
        _ keep: Int, terms: [QueryTerm], in index: ImpactIndex, counts: (Int64) throws(Failure) -> [UInt32]
    ) throws(Failure) -> ImpactSearch.Result {
        let none = ImpactSearch.Result(ranked: [], total: 0, isExact: true, scored: 0)
        let phrases = terms.phrases
        let known = { (stem: Int32) in Int(stem) < index.postings.count }
        guard keep > 0, !phrases.isEmpty else { return none }
        for term in terms {
            switch term {
            case .phrase(let stems): guard !stems.isEmpty, stems.allSatisfy(known) else { return none }
            case .anyOf(let stems): guard stems.contains(where: known) else { return none }
            }
        }
        // Every document that holds the words of some phrase, counted.
        var counted: [UInt32: [UInt32]] = [:]
        for phrase in phrases {
            for rowid in Self.documents(holdingAll: phrase, in: index) where counted[rowid] == nil {
                counted[rowid] = try counts(Int64(rowid))
            }
        }
        var holding = [Int](repeating: 0, count: phrases.count)
        for found in counted.values {
            for (phrase, count) in found.enumerated() where count > 0 { holding[phrase] += 1 }
        }
        let phraseFrequency = holding.map { BM25.inverseFrequency(rows: index.rows, hits: Int64($0)) }
        // Each word's inverse frequency, once for the query, not once per match.
        var termFrequency: [Int32: Double] = [:]
        for case .anyOf(let stems) in terms {
            for stem in stems where known(stem) {
                termFrequency[stem] = BM25.inverseFrequency(rows: index.rows, hits: Int64(index.postings[Int(stem)].documents))
            }
        }
        let average = index.averageLength
        var best = Heap<Ranked>()
        var matches = 0
        documents: for (rowid, found) in counted where found.allSatisfy({ $0 > 0 }) {
            let length = Double(index.lengths[Int(rowid)])
            // Summed in the query's order, as FTS5 does, so a score is FTS5's to the bit.
            var score = 0.0
            var phrase = 0
            for term in terms {
                switch term {
                case .phrase:
                    score += phraseFrequency[phrase] * BM25.part(frequency: Double(found[phrase]), length: length, averageLength: average)
                    phrase += 1
                case .anyOf(let stems):
                    var termScore: Double?
                    for stem in stems {
                        guard let inverse = termFrequency[stem], let frequency = index.postings[Int(stem)].frequency(of: rowid) else { continue }
                        let part = inverse * BM25.part(frequency: Double(frequency), length: length, averageLength: average)
                        termScore = max(termScore ?? part, part)
                    }
                    guard let termScore else { continue documents }
                    score += termScore
                }
            }
            matches += 1
            best.offer(Ranked(score: score, rowid: Int64(rowid)), keeping: keep)
        }
        return ImpactSearch.Result(ranked: best.unordered.sorted(by: >), total: matches, isExact: true, scored: counted.count)
    }

    /// The live documents that hold every word of `phrase`: those of its
    /// rarest word that the others (`RarestWords`, of the next
    /// `ImpactPhrase.boundingWords - 1` rarest) hold; a read finds the rest.
    private static func documents(holdingAll phrase: [Int32], in index: ImpactIndex) -> [UInt32] {
        let terms = Set(phrase).map { index.postings[Int($0)] }.sorted { $0.documents < $1.documents }
        guard let driver = terms.first else { return [] }
        let lengths = index.lengths
        let held = RarestWords.of(driver: driver, others: Array(terms.dropFirst().prefix(ImpactPhrase.boundingWords - 1)), lengths: lengths)
        return driver.tiers.flatMap { tier in tier.rowids.filter { held.holdsAll($0, lengths) } }
    }
}

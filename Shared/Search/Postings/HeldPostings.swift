/// A document's stems by number, in order, as `ImpactIndex.add(_:)` takes it.
struct StemmedDocument {
    let rowid: Int64
    let title: [Int32]
    let content: [Int32]
}

/// The postings of a batch of documents, held back to be appended to their
/// terms term by term (`ImpactIndex.add(_:)`): each document's rowid, its
/// length and the average length when it was added, and each posting's
/// stem and weighted count, in the order they came (rowid order).
///
/// Bound: what one call adds (a catch-up's batch, `SearchRules.catchUpBatch`
/// changes, or a load's page, `SQLiteSearchIndex.loadPage` documents), 12
/// bytes a posting and 16 a document: about 3.6 MB for 10,000 posts of 30
/// postings each; and while they are put in order, 4 bytes more a posting
/// (8 when sorted) and 4 a term.
struct HeldPostings {
    struct Posting {
        let rowid: UInt32
        let frequency: UInt32
        let length: Int32
        let average: Double
    }

    private var documents: [(rowid: UInt32, length: Int32, average: Double)] = []
    private var stems: [Int32] = []
    private var owners: [Int32] = []
    private var frequencies: [UInt32] = []
    /// The largest stem held; nil when none is.
    private(set) var largestStem: Int32?

    /// Holds a document's postings (`counts`: each stem's weighted count).
    mutating func hold(_ counts: [(Int32, UInt32)], rowid: UInt32, length: Int32, average: Double) {
        let owner = Int32(documents.count)
        documents.append((rowid, length, average))
        for (stem, frequency) in counts {
            stems.append(stem)
            owners.append(owner)
            frequencies.append(frequency)
            largestStem = max(largestStem ?? stem, stem)
        }
    }

    /// `body` with each posting held, by stem, each stem's in the order
    /// they were held. `terms`: more than the largest stem.
    func byTerm(terms: Int, _ body: (Int32, Posting) -> Void) {
        for index in order(terms: terms) {
            let document = documents[Int(owners[Int(index)])]
            body(
                stems[Int(index)],
                Posting(rowid: document.rowid, frequency: frequencies[Int(index)], length: document.length, average: document.average))
        }
    }

    /// The postings' places, by stem and then as held: counted by stem when
    /// they are many beside the terms (a batch), else sorted (a document).
    private func order(terms: Int) -> [Int32] {
        guard stems.count >= Self.countedFrom, stems.count * 4 >= terms else {
            var keys = stems.indices.map { UInt64(UInt32(stems[$0])) << 32 | UInt64($0) }
            keys.sort()
            return keys.map { Int32(truncatingIfNeeded: $0) }
        }
        var next = [Int32](repeating: 0, count: terms + 1)
        for stem in stems { next[Int(stem) + 1] += 1 }
        for term in 0..<terms { next[term + 1] += next[term] }
        var order = [Int32](repeating: 0, count: stems.count)
        for (index, stem) in stems.enumerated() {
            order[Int(next[Int(stem)])] = Int32(index)
            next[Int(stem)] += 1
        }
        return order
    }

    /// Postings from which they are counted into order rather than sorted.
    static let countedFrom = 1024
}

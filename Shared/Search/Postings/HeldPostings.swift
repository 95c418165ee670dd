/// A document's stems by number, in order, as `ImpactIndex.add(_:)` takes it.
struct StemmedDocument {
    let rowid: Int64
    let title: [Int32]
    let content: [Int32]
}

/// The postings of a batch of documents, held back to be appended to their
/// terms a term's run at a time (`ImpactIndex.add(_:)`): each document's
/// length and the average length when it was added, and each posting's
/// stem, rowid and weighted count, in the order they came (rowid order).
/// Its room is kept from one batch to the next (`clear`) while batches
/// come large (`ImpactIndex.heldRoomKeptFrom`).
///
/// Bound: what one call adds (a catch-up's batch, `SearchRules.catchUpBatch`
/// changes or `catchUpBatchBytes` of text, or a load's page,
/// `SQLiteSearchIndex.loadPage` documents), 16 bytes a posting and 16 a
/// document, 8 bytes a word of the longest document (its words counted),
/// and to put them in order 12 bytes more a posting and 4 a term: about 22
/// MB for a batch of 4 MB of text (700,000 words) at 200,000 terms.
struct HeldPostings {
    /// A posting: its document's rowid, its weighted count, and its
    /// document's place among those held (`Document`).
    struct Posting {
        let rowid: UInt32
        let frequency: UInt32
        let document: UInt32
    }

    /// A document held: its length, and the average length when it was added.
    struct Document {
        let length: Int32
        let average: Double
    }

    private var documents: [Document] = []
    private var stems: [Int32] = []
    private var postings: [Posting] = []
    /// The largest stem held; nil when none is.
    private(set) var largestStem: Int32?
    /// A document's stems and weights, being counted (`hold`); and the
    /// postings' places, when few enough to be sorted (`putInOrder`).
    private var keys: [UInt64] = []
    /// The postings in stem order, each stem's end there, and where the
    /// next of each stem goes while they are put there (`byTerm`).
    private var sorted: [Posting] = []
    private var runs: [(stem: Int32, end: Int32)] = []
    private var next: [Int32] = []

    /// Postings held.
    var count: Int { postings.count }

    /// Bytes of room it holds, used or not.
    var roomBytes: Int {
        documents.capacity * MemoryLayout<Document>.stride + (stems.capacity + next.capacity) * 4 + keys.capacity * 8
            + (postings.capacity + sorted.capacity) * MemoryLayout<Posting>.stride
            + runs.capacity * MemoryLayout<(stem: Int32, end: Int32)>.stride
    }

    /// Holds nothing, and keeps its room for the next batch.
    mutating func clear() {
        documents.removeAll(keepingCapacity: true)
        stems.removeAll(keepingCapacity: true)
        postings.removeAll(keepingCapacity: true)
        largestStem = nil
    }

    /// Room for `documents` more of `words` words in all (as many postings
    /// at most), so that holding them does not grow it step by step.
    mutating func reserve(documents count: Int, words: Int) {
        documents.reserveCapacity(documents.count + count)
        stems.reserveCapacity(stems.count + words)
        postings.reserveCapacity(postings.count + words)
    }

    /// Holds a document's postings: each stem of its title and content
    /// once, with its weighted count (a title's match counts
    /// `titleWeight`). Answers how many. Counted by sorting each
    /// occurrence's stem and weight as one 8-byte key, then adding up each
    /// run: a post's hundred stems sort in less than a dictionary of them
    /// took to hash (SipHash, about 5,000 instructions a post); the keys'
    /// room is kept from one document to the next.
    mutating func hold(title: [Int32], content: [Int32], titleWeight: UInt32, rowid: UInt32, length: Int32, average: Double) -> Int {
        let document = UInt32(documents.count)
        documents.append(Document(length: length, average: average))
        keys.removeAll(keepingCapacity: true)
        for stem in title { keys.append(UInt64(UInt32(bitPattern: stem)) << 32 | UInt64(titleWeight)) }
        for stem in content { keys.append(UInt64(UInt32(bitPattern: stem)) << 32 | 1) }
        keys.sort()
        let first = stems.count
        for key in keys {
            let stem = Int32(bitPattern: UInt32(truncatingIfNeeded: key >> 32))
            let weight = UInt32(truncatingIfNeeded: key)
            if stems.count > first, stems[stems.count - 1] == stem {
                let last = postings[postings.count - 1]
                postings[postings.count - 1] = Posting(rowid: rowid, frequency: last.frequency + weight, document: document)
            } else {
                stems.append(stem)
                postings.append(Posting(rowid: rowid, frequency: weight, document: document))
            }
        }
        if let last = keys.last { largestStem = max(largestStem ?? 0, Int32(bitPattern: UInt32(truncatingIfNeeded: last >> 32))) }
        return stems.count - first
    }

    /// `body` with each stem's postings, stems ascending, each stem's in
    /// the order they were held, and the documents they belong to.
    /// `terms`: more than the largest stem.
    mutating func byTerm(terms: Int, _ body: (Int32, UnsafeBufferPointer<Posting>, UnsafeBufferPointer<Document>) -> Void) {
        putInOrder(terms: terms)
        sorted.withUnsafeBufferPointer { sorted in
            documents.withUnsafeBufferPointer { documents in
                var start = 0
                for (stem, end) in runs {
                    body(stem, UnsafeBufferPointer(rebasing: sorted[start..<Int(end)]), documents)
                    start = Int(end)
                }
            }
        }
    }

    /// Puts the postings by stem and then as held (`sorted`), and where
    /// each stem's end (`runs`): counted by stem when they are many beside
    /// the terms (a batch), else sorted (a document).
    private mutating func putInOrder(terms: Int) {
        runs.removeAll(keepingCapacity: true)
        sorted.removeAll(keepingCapacity: true)
        sorted.reserveCapacity(postings.count)
        guard stems.count >= Self.countedFrom, stems.count * 4 >= terms else {
            keys.removeAll(keepingCapacity: true)
            for (place, stem) in stems.enumerated() { keys.append(UInt64(UInt32(bitPattern: stem)) << 32 | UInt64(place)) }
            keys.sort()
            for (place, key) in keys.enumerated() {
                let stem = Int32(truncatingIfNeeded: key >> 32)
                if runs.last?.stem == stem { runs[runs.count - 1].end += 1 } else { runs.append((stem, Int32(place + 1))) }
                sorted.append(postings[Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: key))])
            }
            return
        }
        next.removeAll(keepingCapacity: true)
        next.append(contentsOf: repeatElement(0, count: terms + 1))
        for stem in stems { next[Int(stem) + 1] += 1 }
        for term in 0..<terms {
            if next[term + 1] > 0 { runs.append((Int32(term), next[term] + next[term + 1])) }
            next[term + 1] += next[term]
        }
        // Each posting written once, to its place: the runs are then read in order.
        sorted.append(contentsOf: repeatElement(Posting(rowid: 0, frequency: 0, document: 0), count: postings.count))
        sorted.withUnsafeMutableBufferPointer { sorted in
            next.withUnsafeMutableBufferPointer { next in
                for (stem, posting) in zip(stems, postings) {
                    sorted[Int(next[Int(stem)])] = posting
                    next[Int(stem)] += 1
                }
            }
        }
    }

    /// Postings from which they are counted into order rather than sorted.
    static let countedFrom = 1024
}

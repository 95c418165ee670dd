/// Which documents of a phrase's rarest word (the driver) hold its next
/// rarest words too (`others`): told by a bitset of each one's documents,
/// a bit per rowid, built once for the query; or, when the driver holds so
/// few documents that it costs less, by walking the driver's documents in
/// rowid order through each tier of the others' postings (galloping: each
/// step past the last doubles), which also gives the least of their counts
/// there, a bound on the phrase's. A common word's bitset costs a pass over
/// its postings (hundreds of thousands at a million posts) and the clearing
/// of a bit per rowid, where a rare driver's walk takes a few steps for
/// each of its documents in each tier.
enum RarestWords {
    case bitsets([[UInt64]])
    /// Each live document of the driver that holds every other word, with
    /// the least of their counts there.
    case walked([UInt32: UInt32])

    /// A step of a walk costs about as much as this many bits of a bitset
    /// set or cleared (measured: docs/BENCHMARKS.md, #44).
    static let stepCost = 3

    static func of(driver: TermTiers, others: [TermTiers], lengths: ContiguousArray<Int32>) -> RarestWords {
        let asked = max(1, driver.documents)
        // A walk through a tier: about log2(its postings a document of the driver apart) + 2 steps each.
        let steps = others.reduce(0) { total, term in
            term.tiers.reduce(total) { $0 + Int.bitWidth - max(1, $1.rowids.count / asked).leadingZeroBitCount + 1 }
        }
        let bits = others.reduce(0) { $0 + lengths.count / 64 + $1.documents }
        guard !others.isEmpty, asked * steps * stepCost <= bits else {
            return .bitsets(others.map { bitset(of: $0, size: lengths.count) })
        }
        let rowids = driver.tiers.flatMap { $0.rowids.filter { lengths[Int($0)] >= 0 } }.sorted()
        var least = [UInt32](repeating: .max, count: rowids.count)
        var holding = [Int](repeating: 0, count: rowids.count)
        for term in others {
            // By index: a tier read in place, not copied.
            for tier in term.tiers.indices {
                var offset = 0
                let frequencies = term.tiers[tier].frequencies
                term.tiers[tier].rowids.forEachRun { run in
                    var position = 0
                    for (index, rowid) in rowids.enumerated() {
                        position = run.firstNotBelow(rowid, from: position)
                        guard position < run.count else { break }
                        guard run[position] == rowid else { continue }
                        least[index] = min(least[index], frequencies[offset + position])
                        holding[index] += 1
                    }
                    offset += run.count
                }
            }
        }
        var walked: [UInt32: UInt32] = [:]
        for index in rowids.indices where holding[index] == others.count { walked[rowids[index]] = least[index] }
        return .walked(walked)
    }

    /// Whether `rowid`'s document is there (not removed) and holds every
    /// other word.
    @inline(__always)
    func holdsAll(_ rowid: UInt32, _ lengths: ContiguousArray<Int32>) -> Bool {
        switch self {
        case .bitsets(let held):
            lengths[Int(rowid)] >= 0 && held.allSatisfy { Int(rowid >> 6) < $0.count && $0[Int(rowid >> 6)] & (1 << (rowid & 63)) != 0 }
        case .walked(let walked): walked[rowid] != nil
        }
    }

    /// The least count of the other words in `rowid`'s document, when the
    /// driver's documents were walked.
    @inline(__always)
    func leastCount(_ rowid: UInt32) -> UInt32? {
        if case .walked(let walked) = self { walked[rowid] } else { nil }
    }

    /// The documents of `term`, one bit each by rowid (removed ones too).
    static func bitset(of term: TermTiers, size: Int) -> [UInt64] {
        var bits = [UInt64](repeating: 0, count: (size + 63) / 64)
        bits.withUnsafeMutableBufferPointer { bits in
            for tier in term.tiers {
                for rowid in tier.rowids { bits[Int(rowid >> 6)] |= 1 << (rowid & 63) }
            }
        }
        return bits
    }
}

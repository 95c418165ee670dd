/// The index's terms (porter stems, as FTS5 indexes them) by number, and
/// every word and stem seen, kept sorted, to complete an unfinished word:
/// `runni` finds `running`, whose stem `run` it is not a prefix of.
struct ImpactVocabulary {
    /// How many words an unsorted tail may hold before it is merged in:
    /// a completion reads the whole tail, a merge rewrites the sorted keys.
    static let tail = 4096

    private(set) var stems: [String] = []
    private var stemNumbers: [String: Int32] = [:]
    /// Each word (as unicode61 folds it) to its stem's number, by the
    /// word's bytes, as indexing looks words up.
    private var wordStems = WordBytesTable()
    /// Words and stems, each with its stem's number, to complete a prefix
    /// (a stem may also be a word with a stem of its own: then it is twice).
    private var sortedKeys: [String] = []
    private var sortedStems: [Int32] = []
    private var unsortedKeys: [(key: String, stem: Int32)] = []

    init() {}

    /// Its stems and words as `init(from:)` reads them back (`StoredPostings`).
    func store(into writer: inout StoredWriter) {
        writer.varint(stems.count)
        for stem in stems { writer.string(stem) }
        writer.varint(wordStems.count)
        wordStems.forEach { word, stem in
            writer.string(String(decoding: word, as: UTF8.self))
            writer.varint(Int(stem))
        }
    }

    /// The keys that complete a prefix are sorted anew: every stem, and
    /// every word that is not its own stem, as `add` made them.
    init(from reader: inout StoredReader) throws(StoredPostingsError) {
        for _ in 0..<(try reader.count()) {
            let stem = try reader.string()
            stemNumbers[stem] = Int32(stems.count)
            stems.append(stem)
        }
        var keys = stems.enumerated().map { (key: $1, stem: Int32($0)) }
        let words = try reader.count()
        for _ in 0..<words {
            let word = try reader.string()
            let stem = try reader.count(atMost: stems.count - 1)
            Self.record(word, Int32(stem), in: &wordStems)
            if word != stems[stem] { keys.append((word, Int32(stem))) }
        }
        keys.sort { $0.key < $1.key }
        (sortedKeys, sortedStems) = (keys.map(\.key), keys.map(\.stem))
    }

    /// The stem of a word seen before, by number.
    func stem(ofWord word: String) -> Int32? {
        var word = word
        return word.withUTF8 { wordStems.stem(of: $0) }
    }

    /// The same, for a word given as its bytes.
    func stem(ofWordBytes word: UnsafeBufferPointer<UInt8>) -> Int32? { wordStems.stem(of: word) }

    /// Records a word's stem number; answers whether the word was new.
    @discardableResult
    private static func record(_ word: String, _ stem: Int32, in table: inout WordBytesTable) -> Bool {
        var word = word
        return word.withUTF8 { table.insert($0, stem: stem) }
    }

    func number(ofStem stem: String) -> Int32? { stemNumbers[stem] }

    /// Records a word and its stem; answers the stem's number.
    mutating func add(word: String, stem: String) -> Int32 {
        let number: Int32
        if let known = stemNumbers[stem] {
            number = known
        } else {
            number = Int32(stems.count)
            stems.append(stem)
            stemNumbers[stem] = number
            addKey(stem, number)
        }
        if Self.record(word, number, in: &wordStems), word != stem { addKey(word, number) }
        return number
    }

    private mutating func addKey(_ key: String, _ stem: Int32) {
        unsortedKeys.append((key, stem))
        if unsortedKeys.count > Self.tail { merge() }
    }

    private mutating func merge() {
        var keys = zip(sortedKeys, sortedStems).map { (key: $0, stem: $1) } + unsortedKeys
        keys.sort { $0.key < $1.key }
        sortedKeys = keys.map(\.key)
        sortedStems = keys.map(\.stem)
        unsortedKeys = []
    }

    private func lowerBound(_ prefix: String) -> Int {
        var low = 0, high = sortedKeys.count
        while low < high {
            let middle = (low + high) / 2
            if sortedKeys[middle] < prefix { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The stems of every word or stem that starts with one of `prefixes`.
    func stems(startingWith prefixes: [String]) -> Set<Int32> {
        var found = Set<Int32>()
        for prefix in Set(prefixes) where !prefix.isEmpty {
            var low = lowerBound(prefix)
            while low < sortedKeys.count, sortedKeys[low].hasPrefix(prefix) {
                found.insert(sortedStems[low])
                low += 1
            }
            for (key, stem) in unsortedKeys where key.hasPrefix(prefix) { found.insert(stem) }
        }
        return found
    }
}

/// Text as the index tokenizes it, as an `ImpactIndex`'s stem numbers:
/// its `WordTokenizer` finds and folds the words, and each new word is
/// stemmed once.
public struct ImpactTokenizer {
    private let tokenizer: any WordTokenizer

    public init(_ tokenizer: any WordTokenizer) {
        self.tokenizer = tokenizer
    }

    /// The words of `text`, folded. ASCII text is cut here (`eachWord`),
    /// without a call into the tokenizer per word: about 6,400 instructions
    /// of the 173,000 search-service spent on an imported post.
    func words(in text: String) throws -> [String] {
        guard !text.isEmpty else { return [] }
        var words: [String] = []
        var folded: [UInt8] = []
        try eachWord(in: text) { word in
            guard word.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else {
                words.append(String(decoding: word, as: UTF8.self))
                return
            }
            folded.removeAll(keepingCapacity: true)
            for byte in word { folded.append(Self.folded(byte)) }
            words.append(String(decoding: folded, as: UTF8.self))
        }
        return words
    }

    func stem(_ word: String) throws -> String {
        try tokenizer.stem(word)
    }

    /// `words(in:)` in one buffer, with no String made for each word: a
    /// post being indexed (`stems(of:adding:)`).
    func packedWords(in text: String) throws -> PackedWords {
        guard !text.isEmpty else { return PackedWords() }
        return try PackedWords(fromTextOf: text.utf8.count) { word in try eachWord(in: text, word) }
    }

    /// The stems of `words` (a text's, `packedWords(in:)`), in order, new
    /// words added to `index`: a word seen before is looked up by its bytes.
    func stems(of words: PackedWords, adding index: inout ImpactIndex) throws -> [Int32] {
        var stems: [Int32] = []
        stems.reserveCapacity(words.count)
        try words.forEach { word in
            if let known = index.vocabulary.stem(ofWordBytes: word) {
                stems.append(known)
                return
            }
            let string = String(decoding: word, as: UTF8.self)
            stems.append(index.add(word: string, stem: try stem(string)))
        }
        return stems
    }

    /// The stems of `text`'s tokens that the index knows (a word it has
    /// never seen is in no document).
    func knownStems(of text: String, in index: ImpactIndex) throws -> [Int32?] {
        try words(in: text).map { word in try knownStem(of: word, in: index) }
    }

    private func knownStem(of word: String, in index: ImpactIndex) throws -> Int32? {
        if let known = index.vocabulary.stem(ofWord: word) { return known }
        return index.vocabulary.number(ofStem: try stem(word))
    }

    /// `knownStems(of:in:)`, but only a token that may be one of `stems`
    /// is stemmed; any other is nil. A stemmer changes only a word's ending
    /// (`WordTokenizer.stem`), so a word and its stem begin with the same byte, and
    /// the stem is no longer than the word: a token that differs in either
    /// is none of them, told without making a String of it (a phrase's
    /// count is read so in each post that may reach the page).
    func knownStems(of text: String, in index: ImpactIndex, onlyAmong stems: [Int32]) throws -> [Int32?] {
        guard !text.isEmpty else { return [] }
        var shortest = [Int](repeating: .max, count: 256)
        for stem in stems where Int(stem) < index.vocabulary.stems.count {
            let bytes = index.vocabulary.stems[Int(stem)].utf8
            if let first = bytes.first { shortest[Int(first)] = min(shortest[Int(first)], bytes.count) }
        }
        var found: [Int32?] = []
        var folded: [UInt8] = []
        try eachWord(in: text) { word in
            guard let first = word.first, word.count >= shortest[Int(Self.folded(first))] else {
                found.append(nil)
                return
            }
            folded.removeAll(keepingCapacity: true)
            for byte in word { folded.append(Self.folded(byte)) }
            found.append(try knownStem(of: String(decoding: folded, as: UTF8.self), in: index))
        }
        return found
    }

    /// Each word the tokenizer finds in `text`, in order, as its bytes:
    /// folded to lower case, but for ASCII capitals (`folded` folds those,
    /// and leaves the rest as it is). In ASCII alone the words are the runs
    /// of the characters `SearchQuery.isTokenCharacter` takes (letters and
    /// digits, as `WordTokenizer` requires), found here without a call per token.
    private func eachWord(in text: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        var text = text
        var failure: (any Error)?
        try text.withUTF8 { bytes in
            guard bytes.contains(where: { $0 >= 0x80 }) else {
                try Self.asciiWordBytes.withUnsafeBufferPointer { isWordByte in
                    var start = 0
                    while start < bytes.count {
                        guard isWordByte[Int(bytes[start])] else {
                            start += 1
                            continue
                        }
                        var end = start + 1
                        while end < bytes.count, isWordByte[Int(bytes[end])] { end += 1 }
                        try body(UnsafeBufferPointer(rebasing: bytes[start..<end]))
                        start = end
                    }
                }
                return
            }
            try tokenizer.eachWord(in: bytes, what: "a text") { token, _ in
                do {
                    try body(token)
                    return true
                } catch {
                    failure = error
                    return false
                }
            }
        }
        if let failure { throw failure }
    }

    /// Which ASCII bytes are word characters (`WordTokenizer`).
    private static let asciiWordBytes: [Bool] = (0..<128).map { SearchQuery.isTokenCharacter(Unicode.Scalar(UInt8($0))) }

    /// Capital ASCII letters folded to lower case, as the tokenizer leaves them.
    @inline(__always)
    static func folded(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }
}

import GRDB

/// Where a text's tokens are, as FTS5's unicode61 tokenizer finds them.
/// The index's porter stemmer wraps that tokenizer: it changes tokens but
/// never where they are, so token N here is token N of FTS5's instances.
struct TokenOffsets {
    private let tokenizer: any FTS5Tokenizer

    init(_ db: Database) throws {
        tokenizer = try db.makeTokenizer(.unicode61())
    }

    /// The byte ranges of `text`'s first `limit` tokens, and whether the
    /// text has no more (so a long post is read only as far as needed).
    func offsets(_ text: UnsafeBufferPointer<UInt8>, limit: Int) throws -> (offsets: [Range<Int>], complete: Bool) {
        var offsets: [Range<Int>] = []
        offsets.reserveCapacity(min(limit, 256))
        var more = false
        try TokenWalk.each(in: text, by: tokenizer, for: .document, what: "a snippet") { _, range in
            guard offsets.count < limit else {
                more = true
                return false
            }
            offsets.append(range)
            return true
        }
        return (offsets, !more)
    }
}

import GRDB
import GRDBSQLite

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
        let found = Found(limit: limit)
        let code = text.withMemoryRebound(to: CChar.self) { characters in
            tokenizer.tokenize(
                context: Unmanaged.passUnretained(found).toOpaque(), tokenization: .document,
                pText: characters.baseAddress, nText: Int32(characters.count)
            ) { context, _, _, _, start, end in
                guard let context else { return SQLITE_ERROR }
                let found = Unmanaged<Found>.fromOpaque(context).takeUnretainedValue()
                guard found.offsets.count < found.limit else {
                    found.more = true
                    return SQLITE_DONE  // stops the tokenizer, which then answers SQLITE_OK
                }
                found.offsets.append(Int(start)..<Int(end))
                return SQLITE_OK
            }
        }
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot find the tokens of a snippet")
        }
        return (found.offsets, !found.more)
    }

    private final class Found {
        let limit: Int
        var offsets: [Range<Int>] = []
        var more = false

        init(limit: Int) {
            self.limit = limit
            offsets.reserveCapacity(min(limit, 256))
        }
    }
}

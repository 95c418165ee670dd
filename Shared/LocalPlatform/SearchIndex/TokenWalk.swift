import GRDB
import GRDBSQLite

/// Each token an FTS5 tokenizer finds in a text, handed to a Swift closure
/// with its UTF-8 bytes and their range in the text: the one place the
/// tokenizer's C callback is bridged (`TokenOffsets`, `FTS5Words`).
/// GRDB's `tokenize(document:)` made a `Data` and a cast per token.
enum TokenWalk {
    /// Calls `each` for every token, in order, until it answers false.
    /// `what` names the text in the error thrown when the tokenizer fails.
    static func each(
        in text: UnsafeBufferPointer<UInt8>, by tokenizer: any FTS5Tokenizer, for tokenization: FTS5Tokenization, what: String,
        _ each: (UnsafeBufferPointer<UInt8>, Range<Int>) -> Bool
    ) throws {
        let code = withoutActuallyEscaping(each) { each in
            let visitor = Visitor(each)
            return text.withMemoryRebound(to: CChar.self) { characters in
                tokenizer.tokenize(
                    context: Unmanaged.passUnretained(visitor).toOpaque(), tokenization: tokenization,
                    pText: characters.baseAddress, nText: Int32(characters.count)
                ) { context, _, token, count, start, end in
                    guard let context else { return SQLITE_ERROR }
                    guard let token, count >= 0 else { return SQLITE_OK }
                    let bytes = UnsafeRawBufferPointer(start: token, count: Int(count)).bindMemory(to: UInt8.self)
                    let visitor = Unmanaged<Visitor>.fromOpaque(context).takeUnretainedValue()
                    // SQLITE_DONE stops the tokenizer, which then answers SQLITE_OK.
                    return visitor.each(bytes, Int(start)..<Int(end)) ? SQLITE_OK : SQLITE_DONE
                }
            }
        }
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot find the tokens of \(what)")
        }
    }

    private final class Visitor {
        let each: (UnsafeBufferPointer<UInt8>, Range<Int>) -> Bool
        init(_ each: @escaping (UnsafeBufferPointer<UInt8>, Range<Int>) -> Bool) { self.each = each }
    }
}

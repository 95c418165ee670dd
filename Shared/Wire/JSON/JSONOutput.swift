import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where an encode writes: the `Encoder`'s containers share it.
///
/// Its state is one struct, `JSONText`, changed by one call per value: each
/// access to a class's stored property is checked for exclusivity at run
/// time, and with the bytes and the open containers as properties of their
/// own a reply paid about ninety of those checks.
final class JSONOutput {
    private var text = JSONText()
    /// Dates as Domain writes them (`PostDate`: ISO 8601 in UTC, to the
    /// millisecond) rather than as `Date`'s own conformance does (seconds
    /// since 2001): for people (`JSONWriter.encodeForPeople`).
    let datesAsText: Bool

    init(datesAsText: Bool = false) { self.datesAsText = datesAsText }

    var bytes: [UInt8] { text.bytes }

    /// Closes every container opened at `depth` or deeper.
    func close(deeperThan depth: Int) { text.close(deeperThan: depth) }

    func openContainer(_ start: UInt8, _ end: UInt8, depth: Int) { text.openContainer(start, end, depth: depth) }

    /// Ends what was written beside this element at `depth` (1 is inside the
    /// outermost container) and writes the comma that separates them.
    func beginElement(depth: Int) { text.beginElement(depth: depth) }

    /// An object member's key and its colon, at `depth`.
    func beginMember(_ key: String, depth: Int) { text.beginMember(key, depth: depth) }

    /// A key named in the code, which needs no escape.
    func beginMember(plain key: StaticString, depth: Int) { text.beginMember(plain: key, depth: depth) }

    /// `value` at `key` of the container at `path` (the key's own path is
    /// made only when a value needs it: an error, or an encoder of its own).
    func write<T: Encodable>(_ value: T, depth: Int, path: [any CodingKey], key: (any CodingKey)?) throws {
        // Type identity, not `as?` casts: a failed cast to a Foundation type
        // costs more than writing the value.
        if T.self == String.self {
            writeString(unsafeBitCast(value, to: String.self))
        } else if T.self == Double.self {
            try writeDouble(unsafeBitCast(value, to: Double.self), key.map { path + [$0] } ?? path)
        } else if T.self == Bool.self {
            writeBool(unsafeBitCast(value, to: Bool.self))
        } else if T.self == Int.self {
            writeInteger(unsafeBitCast(value, to: Int.self))
        } else if T.self == Int64.self {
            writeInteger(unsafeBitCast(value, to: Int64.self))
        } else if T.self == URL.self {
            writeString(unsafeBitCast(value, to: URL.self).absoluteString)
        } else if T.self == Data.self {
            writeString(unsafeBitCast(value, to: Data.self).base64EncodedString())
        } else if datesAsText, T.self == Date.self {
            writeString(PostDate.format(unsafeBitCast(value, to: Date.self)))
        } else if T.self == JSONRPCID.self {
            // Every envelope's id, without its single-value container.
            switch unsafeBitCast(value, to: JSONRPCID.self) {
            case .string(let text): writeString(text)
            case .number(let number): writeInteger(number)
            case .null: writeNull()
            }
        } else if T.self == UUID.self {
            // `uuidString`, as its conformance writes it, without a
            // single-value container and Foundation's snprintf.
            writeString(unsafeBitCast(value, to: UUID.self).text)
        } else {
            let before = text.bytes.count
            try value.encode(to: JSONStreamEncoder(output: self, depth: depth, codingPath: key.map { path + [$0] } ?? path))
            if text.bytes.count == before { text.append(JSONText.emptyObject) }  // as JSONEncoder writes a value that wrote nothing
        }
    }

    /// Makes the object just written at `depth` take more members: true
    /// when the value there is an object (still open, or a closed `{}`).
    func reopenObject(depth: Int) -> Bool { text.reopenObject(depth: depth) }

    func writeObject(strings members: KeyValuePairs<StaticString, String?>, depth: Int) {
        text.writeObject(strings: members, depth: depth)
    }

    func writeRanges(_ ranges: [Range<Int>]) { text.writeRanges(ranges) }

    func writeNull() { text.append(JSONText.null) }

    func writeBool(_ value: Bool) { text.append(value ? JSONText.true : JSONText.false) }

    func writeInteger<T: BinaryInteger>(_ value: T) {
        text.append(String(value).utf8)
    }

    func writeDouble<T: BinaryFloatingPoint & LosslessStringConvertible>(_ value: T, _ codingPath: [any CodingKey]) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(value) is not a JSON number"))
        }
        var number = value.description
        if number.hasSuffix(".0") { number.removeLast(2) }
        text.append(number.utf8)
    }

    func writeString(_ string: String) { text.writeString(string) }
}

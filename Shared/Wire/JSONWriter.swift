import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes an `Encodable` value as compact JSON in one pass, straight into
/// bytes: what every reply and request on the wire is written with.
/// Foundation's `JSONEncoder` first builds a tree of boxed values and then
/// writes it; for a search page that was a tenth of a search worker's time.
///
/// It writes what `JSONEncoder` (with `.withoutEscapingSlashes`) writes, up
/// to the order of keys: keys in the order they are encoded, `nil` as
/// `null` where it is encoded (synthesized conformances leave an absent
/// optional out), doubles as their shortest round-trip form without a
/// trailing `.0`, `Data` as base64, `URL` as its absolute string, and a
/// number that is not finite is an error.
///
/// Containers are written as they are asked for and closed once a value is
/// written beside them (or at the end), so a type must finish a nested value
/// before it writes the next, and ask its encoder for one container, as
/// synthesized conformances and ours do.
public enum JSONWriter {
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        let output = JSONOutput()
        try output.write(value, depth: 0, path: [], key: nil)
        output.close(deeperThan: 0)
        return Data(output.bytes)
    }

    /// `{"jsonrpc":"2.0","id":…,"method":…,"params":…}`, with `meta` as
    /// the last member of the params object (`params._meta`), when there
    /// is meta and the params are an object (every method's are).
    static func encodeRequest<P: Encodable>(id: JSONRPCID, method: String, params: P?, meta: RequestMeta?) throws -> Data {
        let output = JSONOutput()
        output.openContainer(UInt8(ascii: "{"), UInt8(ascii: "}"), depth: 0)
        output.beginMember(plain: "jsonrpc", depth: 1)
        output.writeString(JSONRPC.version)
        output.beginMember(plain: "id", depth: 1)
        try output.write(id, depth: 1, path: [], key: nil)
        output.beginMember(plain: "method", depth: 1)
        output.writeString(method)
        if let params {
            output.beginMember(plain: "params", depth: 1)
            try output.write(params, depth: 1, path: [], key: RequestMember.params)
            if let meta, !meta.isEmpty, output.reopenObject(depth: 1) {
                output.beginMember(plain: "_meta", depth: 2)
                try output.write(meta, depth: 2, path: [RequestMember.params], key: nil)
            }
        }
        output.close(deeperThan: 0)
        return Data(output.bytes)
    }

    enum RequestMember: String, CodingKey { case params }

    /// The two members a reply may carry beside `jsonrpc` and `id`.
    enum EnvelopeMember: String, CodingKey { case result, error }

    /// `{"jsonrpc":"2.0","id":…,"result":…}` (or `"error"`): what the
    /// synthesized conformances of `ResultEnvelope` and `ErrorEnvelope`
    /// write, without their keyed container. Every reply is one; the
    /// container's box and the runtime's look-ups of its generic types were
    /// a tenth of what a posts.get reply cost to write.
    static func encodeEnvelope<T: Encodable>(id: JSONRPCID, member: EnvelopeMember, _ value: T) throws -> Data {
        let output = JSONOutput()
        output.openContainer(UInt8(ascii: "{"), UInt8(ascii: "}"), depth: 0)
        output.beginMember(plain: "jsonrpc", depth: 1)
        output.writeString(JSONRPC.version)
        output.beginMember(plain: "id", depth: 1)
        try output.write(id, depth: 1, path: [], key: nil)
        output.beginMember(member.stringValue, depth: 1)
        try output.write(value, depth: 1, path: [], key: member)
        output.close(deeperThan: 0)
        return Data(output.bytes)
    }
}

/// Where an encode writes: the `Encoder`'s containers share it.
///
/// Its state is one struct, `JSONText`, changed by one call per value: each
/// access to a class's stored property is checked for exclusivity at run
/// time, and with the bytes and the open containers as properties of their
/// own a reply paid about ninety of those checks.
final class JSONOutput {
    private var text = JSONText()

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

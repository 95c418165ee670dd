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

    /// `value` for people and scripts to read (the CLI's `--json`): keys
    /// sorted, two spaces per level, dates as `PostDate` text; the same
    /// writer, then its text laid out (`JSONValue.laidOut`).
    public static func encodeForPeople<T: Encodable>(_ value: T) throws -> String {
        let output = JSONOutput(datesAsText: true)
        try output.write(value, depth: 0, path: [], key: nil)
        output.close(deeperThan: 0)
        let tree = try output.bytes.withUnsafeBytes { bytes in try JSONValue(parsing: bytes) }
        var text = JSONText()
        tree.layOut(into: &text, indent: 0)
        return String(decoding: text.bytes, as: UTF8.self)
    }

    /// `{"jsonrpc":"2.0","id":…,"method":…,"params":…}`, with `meta` as
    /// the last member of the params object (`params._meta`), when there
    /// is meta and the params are an object (every method's are).
    static func encodeRequest<P: Encodable>(id: JSONRPCID, method: String, params: P?, meta: RequestMeta?) throws -> Data {
        let output = try envelope(id: id)
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

    /// `{"jsonrpc":"2.0","id":…`: what every request and reply starts with.
    private static func envelope(id: JSONRPCID) throws -> JSONOutput {
        let output = JSONOutput()
        output.openContainer(UInt8(ascii: "{"), UInt8(ascii: "}"), depth: 0)
        output.beginMember(plain: "jsonrpc", depth: 1)
        output.writeString(JSONRPC.version)
        output.beginMember(plain: "id", depth: 1)
        try output.write(id, depth: 1, path: [], key: nil)
        return output
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
        let output = try envelope(id: id)
        output.beginMember(member.stringValue, depth: 1)
        try output.write(value, depth: 1, path: [], key: member)
        output.close(deeperThan: 0)
        return Data(output.bytes)
    }
}

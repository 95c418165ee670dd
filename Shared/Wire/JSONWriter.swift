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
}

/// The bytes written so far, and the containers still open, innermost last.
final class JSONOutput {
    var bytes: [UInt8] = []
    private var open: [(close: UInt8, hasElement: Bool)] = []

    init() { bytes.reserveCapacity(512) }

    /// Closes every container opened at `depth` or deeper.
    func close(deeperThan depth: Int) {
        while open.count > depth { bytes.append(open.removeLast().close) }
    }

    func openContainer(_ start: UInt8, _ end: UInt8, depth: Int) {
        close(deeperThan: depth)
        bytes.append(start)
        open.append((end, false))
    }

    /// Ends what was written beside this element at `depth` (1 is inside the
    /// outermost container) and writes the comma that separates them.
    func beginElement(depth: Int) {
        close(deeperThan: depth)
        guard depth > 0, depth <= open.count else { return }
        if open[depth - 1].hasElement { bytes.append(UInt8(ascii: ",")) }
        open[depth - 1].hasElement = true
    }

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
        } else {
            let before = bytes.count
            try value.encode(to: JSONStreamEncoder(output: self, depth: depth, codingPath: key.map { path + [$0] } ?? path))
            if bytes.count == before { bytes += Self.emptyObject }  // as JSONEncoder writes a value that wrote nothing
        }
    }

    func writeNull() { bytes += Self.null }

    func writeBool(_ value: Bool) { bytes += value ? Self.true : Self.false }

    func writeInteger<T: BinaryInteger>(_ value: T) {
        bytes += String(value).utf8
    }

    func writeDouble<T: BinaryFloatingPoint & LosslessStringConvertible>(_ value: T, _ codingPath: [any CodingKey]) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(value) is not a JSON number"))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes += text.utf8
    }

    func writeString(_ string: String) {
        var string = string
        string.withUTF8 { writeEscaped($0) }
    }

    /// Runs of bytes that need no escape go in whole: byte by byte, each
    /// append paid the exclusivity check of a class's property.
    private func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.reserveCapacity(bytes.count + utf8.count + 2)
        bytes.append(UInt8(ascii: "\""))
        var run = 0
        for index in utf8.indices {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
            run = index + 1
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            default:
                bytes += Array("\\u00".utf8)
                bytes += [Self.hex[Int(byte >> 4)], Self.hex[Int(byte & 0xF)]]
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hex = Array("0123456789abcdef".utf8)
    private static let null = Array("null".utf8)
    private static let `true` = Array("true".utf8)
    private static let `false` = Array("false".utf8)
    private static let emptyObject = Array("{}".utf8)
}

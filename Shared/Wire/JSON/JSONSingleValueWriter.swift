#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One value, in the place its container made for it.
struct JSONSingleValueWriter: SingleValueEncodingContainer {
    let output: JSONOutput
    let depth: Int
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { output.writeNull() }
    mutating func encode(_ value: Bool) throws { output.writeBool(value) }
    mutating func encode(_ value: String) throws { output.writeString(value) }
    mutating func encode(_ value: Double) throws { try output.writeDouble(value, codingPath) }
    mutating func encode(_ value: Float) throws { try output.writeDouble(value, codingPath) }
    mutating func encode(_ value: Int) throws { output.writeInteger(value) }
    mutating func encode(_ value: Int8) throws { output.writeInteger(value) }
    mutating func encode(_ value: Int16) throws { output.writeInteger(value) }
    mutating func encode(_ value: Int32) throws { output.writeInteger(value) }
    mutating func encode(_ value: Int64) throws { output.writeInteger(value) }
    mutating func encode(_ value: UInt) throws { output.writeInteger(value) }
    mutating func encode(_ value: UInt8) throws { output.writeInteger(value) }
    mutating func encode(_ value: UInt16) throws { output.writeInteger(value) }
    mutating func encode(_ value: UInt32) throws { output.writeInteger(value) }
    mutating func encode(_ value: UInt64) throws { output.writeInteger(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try output.write(value, depth: depth, path: codingPath, key: nil)
    }
}

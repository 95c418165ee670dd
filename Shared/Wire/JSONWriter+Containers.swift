#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `Encoder` a value writes itself to, at `depth` (how many containers
/// hold it) in `JSONOutput`.
struct JSONStreamEncoder: Encoder {
    let output: JSONOutput
    let depth: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        output.openContainer(UInt8(ascii: "{"), UInt8(ascii: "}"), depth: depth)
        return KeyedEncodingContainer(JSONKeyedWriter<Key>(output: output, depth: depth + 1, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        output.openContainer(UInt8(ascii: "["), UInt8(ascii: "]"), depth: depth)
        return JSONUnkeyedWriter(output: output, depth: depth + 1, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONSingleValueWriter(output: output, depth: depth, codingPath: codingPath)
    }

    /// The wire's own hot types (`PostDTO`, `SearchHitDTO`) write
    /// themselves through this when they are written by `JSONWriter`,
    /// without a keyed container and a box per member. Writes an object
    /// whose members are all strings; a nil member is left out.
    func writeObject(strings members: KeyValuePairs<StaticString, String?>) {
        output.writeObject(strings: members, depth: depth)
    }
}

/// An object's members; `depth` is theirs.
struct JSONKeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let output: JSONOutput
    let depth: Int
    let codingPath: [any CodingKey]

    private func member(_ key: Key) {
        output.beginMember(key.stringValue, depth: depth)
    }

    mutating func encodeNil(forKey key: Key) throws {
        member(key)
        output.writeNull()
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        member(key)
        try output.write(value, depth: depth, path: codingPath, key: key)
    }

    // The common kinds directly, without the generic path's casts.
    mutating func encode(_ value: String, forKey key: Key) throws {
        member(key)
        output.writeString(value)
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        member(key)
        output.writeBool(value)
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        member(key)
        output.writeInteger(value)
    }

    mutating func encode(_ value: Int64, forKey key: Key) throws {
        member(key)
        output.writeInteger(value)
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        member(key)
        try output.writeDouble(value, codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        member(key)
        return JSONStreamEncoder(output: output, depth: depth, codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        member(key)
        return JSONStreamEncoder(output: output, depth: depth, codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(forKey: Key(stringValue: "super")!)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        member(key)
        return JSONStreamEncoder(output: output, depth: depth, codingPath: codingPath + [key])
    }
}

/// An array's elements; `depth` is theirs.
struct JSONUnkeyedWriter: UnkeyedEncodingContainer {
    let output: JSONOutput
    let depth: Int
    let codingPath: [any CodingKey]
    private(set) var count = 0

    init(output: JSONOutput, depth: Int, codingPath: [any CodingKey]) {
        (self.output, self.depth, self.codingPath) = (output, depth, codingPath)
    }

    /// Starts the next element: the comma before it, and the count.
    private mutating func begin() {
        output.beginElement(depth: depth)
        count += 1
    }

    private mutating func element() -> JSONStreamEncoder {
        begin()
        return JSONStreamEncoder(output: output, depth: depth, codingPath: codingPath)
    }

    mutating func encodeNil() throws {
        begin()
        output.writeNull()
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        begin()
        try output.write(value, depth: depth, path: codingPath, key: nil)
    }

    mutating func encode(_ value: Int) throws {
        begin()
        output.writeInteger(value)
    }

    mutating func encode(_ value: String) throws {
        begin()
        output.writeString(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        element().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        element().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        element()
    }
}

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

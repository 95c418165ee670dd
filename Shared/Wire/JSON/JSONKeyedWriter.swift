#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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

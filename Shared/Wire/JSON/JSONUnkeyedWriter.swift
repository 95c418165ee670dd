#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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

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

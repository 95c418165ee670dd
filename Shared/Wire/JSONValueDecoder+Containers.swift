import Domain

extension JSONValueDecoder {
    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [String: JSONValue]
        let codingPath: [any CodingKey]
        var allKeys: [Key] { members.keys.compactMap(Key.init(stringValue:)) }

        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

        func decodeNil(forKey key: Key) throws -> Bool { members[key.stringValue] == .null }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            guard let value = members[key.stringValue] else { throw PostsError.invalid(JSONValueDecoder.field(codingPath + [key]), .missing) }
            return try JSONValueDecoder.primitive(type, value, codingPath + [key])
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try JSONValueDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key]).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try JSONValueDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key]).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { JSONValueDecoder(value: .object(members), codingPath: codingPath) }
        func superDecoder(forKey key: Key) throws -> any Decoder {
            JSONValueDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key])
        }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let elements: [JSONValue]
        let codingPath: [any CodingKey]
        var currentIndex = 0
        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        private var key: any CodingKey { IndexKey(currentIndex) }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, elements[currentIndex] == .null else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            guard !isAtEnd else { throw PostsError.invalid(JSONValueDecoder.field(codingPath + [key]), .missing) }
            defer { currentIndex += 1 }
            return try JSONValueDecoder.primitive(type, elements[currentIndex], codingPath + [key])
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            defer { currentIndex += 1 }
            return try JSONValueDecoder(value: isAtEnd ? .null : elements[currentIndex], codingPath: codingPath + [key]).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            defer { currentIndex += 1 }
            return try JSONValueDecoder(value: isAtEnd ? .null : elements[currentIndex], codingPath: codingPath + [key]).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder {
            defer { currentIndex += 1 }
            return JSONValueDecoder(value: isAtEnd ? .null : elements[currentIndex], codingPath: codingPath + [key])
        }
    }

    struct Single: SingleValueDecodingContainer {
        let value: JSONValue
        let codingPath: [any CodingKey]

        func decodeNil() -> Bool { value == .null }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try JSONValueDecoder.primitive(type, value, codingPath) }
    }

    struct IndexKey: CodingKey {
        let intValue: Int?
        var stringValue: String { "[\(intValue ?? 0)]" }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }
}

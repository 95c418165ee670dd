import Domain

extension JSONValueDecoder {
    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [String: JSONValue]
        let root: String
        let codingPath: [any CodingKey]
        var allKeys: [Key] { members.keys.compactMap(Key.init(stringValue:)) }

        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

        /// A missing member reads as null, as `decodeIfPresent` expects.
        func decodeNil(forKey key: Key) throws -> Bool { (members[key.stringValue] ?? .null) == .null }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try JSONValueDecoder.primitive(type, member(key), root: root, path: codingPath, key: key)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try decoder(key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try decoder(key).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { try decoder(SuperKey()) }
        func superDecoder(forKey key: Key) throws -> any Decoder { try decoder(key) }

        private func member(_ key: some CodingKey) throws(PostsError) -> JSONValue {
            guard let value = members[key.stringValue] else { throw .invalid(JSONValueDecoder.field(root, codingPath, key), .missing) }
            return value
        }

        private func decoder(_ key: some CodingKey) throws(PostsError) -> JSONValueDecoder {
            JSONValueDecoder(value: try member(key), root: root, codingPath: codingPath + [key])
        }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let elements: [JSONValue]
        let root: String
        let codingPath: [any CodingKey]
        private(set) var currentIndex = 0
        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        init(elements: [JSONValue], root: String, codingPath: [any CodingKey]) {
            (self.elements, self.root, self.codingPath) = (elements, root, codingPath)
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, elements[currentIndex] == .null else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let value = try next()
            defer { currentIndex += 1 }
            return try JSONValueDecoder.primitive(type, value, root: root, path: codingPath, key: IndexKey(currentIndex))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            try decoder().container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try decoder().unkeyedContainer() }

        mutating func superDecoder() throws -> any Decoder { try decoder() }

        /// The element at `currentIndex`; past the end, it is missing.
        private func next() throws(PostsError) -> JSONValue {
            guard !isAtEnd else { throw .invalid(JSONValueDecoder.field(root, codingPath, IndexKey(currentIndex)), .missing) }
            return elements[currentIndex]
        }

        private mutating func decoder() throws(PostsError) -> JSONValueDecoder {
            let decoder = JSONValueDecoder(value: try next(), root: root, codingPath: codingPath + [IndexKey(currentIndex)])
            currentIndex += 1
            return decoder
        }
    }

    struct Single: SingleValueDecodingContainer {
        let value: JSONValue
        let root: String
        let codingPath: [any CodingKey]

        func decodeNil() -> Bool { value == .null }
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try JSONValueDecoder.primitive(type, value, root: root, path: codingPath, key: nil)
        }
    }

    /// An array element's place; the path shows it as `[3]`.
    struct IndexKey: CodingKey {
        let intValue: Int?
        var stringValue: String { "[\(intValue ?? 0)]" }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    struct SuperKey: CodingKey {
        var stringValue: String { "super" }
        var intValue: Int? { nil }
        init() {}
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
    }
}

import Domain

extension JSONReader {
    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let reader: JSONReader
        /// As written; a name written twice counts as written last.
        let members: [Member]
        var codingPath: [any CodingKey] { reader.codingPath }
        var allKeys: [Key] { members.compactMap { Key(stringValue: $0.name) } }

        func contains(_ key: Key) -> Bool { offset(key) != nil }

        /// A missing member reads as null, as `decodeIfPresent` expects.
        func decodeNil(forKey key: Key) throws -> Bool {
            // The member walk read a value starting with n whole: it is null.
            guard let offset = offset(key) else { return true }
            return reader.bytes[offset] == UInt8(ascii: "n")
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try reader.read(type, at: member(key), key: key)
        }

        /// One look for the member, not three (`contains`, `decodeNil`, `decode`).
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let offset = offset(key), reader.bytes[offset] != UInt8(ascii: "n") else { return nil }
            return try reader.read(type, at: offset, key: key)
        }

        // The kinds JSON has, each read by its own specialization of
        // `primitive` rather than through the generic one's casts.
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(as: type, key) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(as: type, key) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(as: type, key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(as: type, key) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(as: type, key) }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try decodeIfPresent(as: type, key) }
        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try decodeIfPresent(as: type, key) }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decodeIfPresent(as: type, key) }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try decodeIfPresent(as: type, key) }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try decodeIfPresent(as: type, key) }

        @inline(__always)
        private func decode<T: Decodable>(as type: T.Type, _ key: Key) throws -> T {
            try reader.read(type, at: member(key), key: key)
        }

        @inline(__always)
        private func decodeIfPresent<T: Decodable>(as type: T.Type, _ key: Key) throws -> T? {
            guard let offset = offset(key), reader.bytes[offset] != UInt8(ascii: "n") else { return nil }
            return try reader.read(type, at: offset, key: key)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try decoder(key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try decoder(key).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { try decoder(SuperKey()) }
        func superDecoder(forKey key: Key) throws -> any Decoder { try decoder(key) }

        /// Where `key`'s value starts. A handful of names, compared in turn:
        /// cheaper than hashing them into a dictionary.
        private func offset(_ key: some CodingKey) -> Int? {
            let name = key.stringValue
            return members.last { $0.name == name }?.offset
        }

        private func member(_ key: some CodingKey) throws(PostsError) -> Int {
            guard let offset = offset(key) else { throw .invalid(JSONReader.field(reader.root, codingPath, key), .missing) }
            return offset
        }

        private func decoder(_ key: some CodingKey) throws(PostsError) -> JSONReader {
            JSONReader(bytes: reader.bytes, offset: try member(key), root: reader.root, codingPath: codingPath + [key], structure: reader.structure)
        }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let reader: JSONReader
        /// Where each element starts.
        let elements: [Int]
        private(set) var currentIndex = 0
        var codingPath: [any CodingKey] { reader.codingPath }
        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        init(reader: JSONReader, elements: [Int]) { (self.reader, self.elements) = (reader, elements) }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, reader.bytes[elements[currentIndex]] == UInt8(ascii: "n") else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let offset = try next()
            defer { currentIndex += 1 }
            return try reader.read(type, at: offset, key: IndexKey(currentIndex))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            try decoder().container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try decoder().unkeyedContainer() }

        mutating func superDecoder() throws -> any Decoder { try decoder() }

        /// Where the element at `currentIndex` starts; past the end, it is missing.
        private func next() throws(PostsError) -> Int {
            guard !isAtEnd else { throw .invalid(JSONReader.field(reader.root, codingPath, IndexKey(currentIndex)), .missing) }
            return elements[currentIndex]
        }

        private mutating func decoder() throws(PostsError) -> JSONReader {
            let decoder = JSONReader(
                bytes: reader.bytes, offset: try next(), root: reader.root, codingPath: codingPath + [IndexKey(currentIndex)],
                structure: reader.structure)
            currentIndex += 1
            return decoder
        }
    }

    struct Single: SingleValueDecodingContainer {
        let reader: JSONReader
        var codingPath: [any CodingKey] { reader.codingPath }

        func decodeNil() -> Bool { reader.byte == UInt8(ascii: "n") && (try? reader.value()) == .null }
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try reader.read(type, at: reader.offset, key: nil, single: true)
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

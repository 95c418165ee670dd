import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one way JSON comes in: text read into a Codable type where it lies
/// (`JSONReader`), with no tree in between. A `JSONBytes` is one value's
/// text, checked whole and kept as it arrived (a request's params, until
/// its handler asks for them as a type); `JSONBytes.decode(_:from:root:)`
/// reads a body that is read once (a reply, a change notice) in place.
public struct JSONBytes: Sendable, Equatable {
    /// The text the value is part of (a whole request, for its params).
    private let storage: [UInt8]
    /// Where the value is in it.
    private let range: Range<Int>
    /// Where each of its containers' values start, when its check noted them.
    private let structure: JSONStructure?

    /// The value's text, from its first byte to its last.
    public var bytes: ArraySlice<UInt8> { storage[range] }

    public static func == (lhs: JSONBytes, rhs: JSONBytes) -> Bool { lhs.bytes == rhs.bytes }

    /// A value in `storage` already checked by this wire's parser.
    init(checked storage: [UInt8], range: Range<Int>? = nil, structure: JSONStructure? = nil) {
        (self.storage, self.range, self.structure) = (storage, range ?? 0..<storage.count, structure)
    }

    /// Checks `text` whole (structure, escapes, UTF-8, numbers), and keeps
    /// it; the first fault is named with its place (`title`, `[3].uid`).
    public init(checking text: UnsafeRawBufferPointer) throws(JSONParseError) {
        let checked = Result { () throws(JSONParser.Failure) in
            try JSONParser.with(bytes: text) { parser throws(JSONParser.Failure) in
                if text.count >= JSONStructure.worthNoting { parser.notes = JSONStructure.Notes() }
                parser.skipSpace()
                let start = parser.index
                try parser.checkValue(depth: 0)
                let end = parser.index
                try parser.expectEnd()
                return (parser.issue, start..<end, parser.notes)
            }
        }
        switch checked {
        case .failure(let failure): throw JSONParseError(failure, bytes: text.count)
        case .success((let issue?, _, _)): throw JSONParseError(issue)
        case .success((nil, let range, let notes)):
            self.init(checked: Array(text.bindMemory(to: UInt8.self)), range: range, structure: notes.map(JSONStructure.init))
        }
    }

    public init(checking data: Data) throws(JSONParseError) {
        let checked = data.withUnsafeBytes { text in Result { () throws(JSONParseError) in try JSONBytes(checking: text) } }
        self = try checked.get()
    }

    /// The value as `type`, errors naming the field from `root`:
    /// `params.post.title must be a string (got 5)`, `entry 3.title …`.
    public func decode<T: Decodable>(_ type: T.Type, root: String) throws(PostsError) -> T {
        let result = storage.withUnsafeBufferPointer { text in
            Result { () throws(PostsError) in try JSONReader.decode(type, from: text, at: range.lowerBound, root: root, structure: structure) }
        }
        return try result.get()
    }

    /// Text read once where it lies (a reply's or a notice's frame), as
    /// `type`: what is read is checked as it is read; what is skipped, for
    /// its structure only.
    public static func decode<T: Decodable>(_ type: T.Type, from text: UnsafeRawBufferPointer, root: String) throws(PostsError) -> T {
        let result = try JSONReader.decode(Whole<T>.self, from: text.bindMemory(to: UInt8.self), root: root)
        return result.value
    }

    /// The value as a tree (`JSONValue`), for what has no fixed shape.
    public var value: JSONValue { (try? decode(JSONValue.self, root: "value")) ?? .null }

    /// `null`.
    public var isNull: Bool { storage[range].first == UInt8(ascii: "n") }
    /// An object (`{…}`).
    public var isObject: Bool { storage[range].first == UInt8(ascii: "{") }
    /// An array (`[…]`).
    public var isArray: Bool { storage[range].first == UInt8(ascii: "[") }

    /// Each element of an array, read as `type` under its own name
    /// (`name(0)` is the first's: `entry 1`); nil when this is no array.
    public func decodeElements<T: Decodable>(_ type: T.Type, name: (Int) -> String) throws(PostsError) -> [T]? {
        guard isArray else { return nil }
        let result = storage.withUnsafeBufferPointer { text in
            Result { () throws(PostsError) -> [T] in
                var offsets = structure?.arrays[range.lowerBound] ?? []
                if structure == nil { offsets = try JSONReader.elements(text, at: range.lowerBound, root: "", path: []) }
                var values: [T] = []
                values.reserveCapacity(offsets.count)
                for (index, offset) in offsets.enumerated() {
                    values.append(try JSONReader.decode(type, from: text, at: offset, root: name(index), structure: structure))
                }
                return values
            }
        }
        return try result.get()
    }
}

/// A value read from the whole of a text: nothing may follow it.
private struct Whole<T: Decodable>: Decodable {
    let value: T

    init(from decoder: any Decoder) throws {
        let reader = decoder as! JSONReader
        var parser = JSONParser(bytes: reader.bytes)
        parser.index = reader.offset
        do {
            try parser.skipValue(depth: 0)
            try parser.expectEnd()
        } catch {
            throw JSONReader.unreadable(error, reader.root, [], nil)
        }
        value = try JSONReader.primitive(T.self, reader.bytes, at: reader.offset, root: reader.root, path: [], key: nil, structure: nil)
    }
}

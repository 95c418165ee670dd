import Domain
import Foundation
import TestSupport
import TestTraits
import Testing
@testable import Wire

/// Replies are written by `JSONWriter`; what it writes must read back as
/// what Foundation's `JSONEncoder` writes for the same value.
@Suite("JSON writer", .ownThread, .timeLimit(.minutes(5)))
struct JSONWriterTests {
    private func foundation<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// Both encodings, parsed: the same objects, arrays, strings and numbers.
    private func expectSame<T: Encodable>(_ value: T, _ label: String) throws {
        let ours = try JSONWriter.encode(value)
        let theirs = try foundation(value)
        let parsedOurs = try JSONSerialization.jsonObject(with: ours, options: .fragmentsAllowed) as? NSObject
        let parsedTheirs = try JSONSerialization.jsonObject(with: theirs, options: .fragmentsAllowed) as? NSObject
        #expect(parsedOurs == parsedTheirs, "\(label): \(String(decoding: ours, as: UTF8.self)) vs \(String(decoding: theirs, as: UTF8.self))")
        #expect(try JSONValue(parsing: ours) == JSONValue(parsing: theirs), "\(label), as the wire's own parser reads it")
    }

    struct Inner: Codable { var name: String; var list: [Int]; var flag: Bool? }
    struct Outer: Codable { var first: Inner; var nested: [[Inner]]; var after: String; var empty: [String: Int]; var missing: Int? }
    struct Nothing: Codable {}
    struct ExplicitNull: Encodable {
        enum CodingKeys: String, CodingKey { case value, rest }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeNil(forKey: .value)
            var rest = container.nestedUnkeyedContainer(forKey: .rest)
            try rest.encodeNil()
            var object = rest.nestedContainer(keyedBy: CodingKeys.self)
            try object.encode(1.5, forKey: .value)
            try rest.encode("last")
        }
    }

    @Test func test_whatTheServicesWrite_readsBackAsJSONEncodersOutput() async throws {
        let hit = SearchHit(
            uid: UUID(), title: "Tabs\tand \"quotes\"", snippet: "…a \\ b\u{1}c é 🎉…", highlights: [1..<2, 5..<9], score: 4.539412345)
        let results = SearchResults(hits: [hit, hit], total: 12_345, totalIsExact: true, sequence: 1 << 60)
        try expectSame(ResultEnvelope(jsonrpc: JSONRPC.version, id: .number(7), result: SearchResultDTO(domain: results, pid: 42)), "a reply")
        try expectSame(
            ErrorEnvelope(
                jsonrpc: JSONRPC.version, id: .string("x"), error: JSONRPCError(.invalidParams, "bad", data: .object(["field": .string("q")]))),
            "an error")
        try expectSame(SearchResultDTO(domain: results, pid: 42), "search page")
        try expectSame(PostDTO(uid: "u", title: "t/1", content: "line\nline\r\n", createDate: "2026-11-23T00:00:00Z"), "post")
        let inner = Inner(name: "n", list: [1, -2, 3], flag: nil)
        try expectSame(
            Outer(first: inner, nested: [[inner, Inner(name: "", list: [], flag: true)], []], after: "x", empty: [:], missing: nil), "nesting")
        try expectSame(Nothing(), "an empty value")
        try expectSame(ExplicitNull(), "explicit nulls and nested containers")
        let value: JSONValue = .object(["a": .array([.integer(Int64.max), .number(0.1), .bool(false), .null]), "b": .object([:]), "c": .string("d")])
        try expectSame(value, "any JSON value")
        try expectSame(["k": [1.0, 1e-06, -2.5, 1e20, Double.leastNonzeroMagnitude]], "doubles")
        // UUIDs and lists of ranges have paths of their own in the writer.
        let noHighlights = SearchHit(uid: UUID(), title: "", snippet: "", highlights: [], score: 0)
        try expectSame(SearchResultDTO(domain: SearchResults(hits: [noHighlights], total: 1, sequence: 1), pid: 1), "a hit without highlights")
        try expectSame(["ranges": [-3..<0, 0..<0, 7..<Int.max], "none": []], "lists of ranges")
        try expectSame([UUID(), UUID(uuid: (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 255))], "uuids")
    }

    @Test func test_everyReplyIsWrittenByteForByteAsItsEnvelopeTypeWritesIt() async throws {
        let post = PostDTO(uid: "u", title: "t \"1\"", content: "line\nline", createDate: "2026-11-23T00:00:00.000Z")
        let error = JSONRPCError(.invalidParams, "bad", data: .object(["field": .string("q")]))
        for id in [JSONRPCID.number(7), .number(-1), .string("x\"y"), .null] {
            #expect(try JSONRPC.encodeResult(id: id, post) == JSONWriter.encode(ResultEnvelope(jsonrpc: JSONRPC.version, id: id, result: post)))
            #expect(try JSONRPC.encodeResult(id: id, [1, 2]) == JSONWriter.encode(ResultEnvelope(jsonrpc: JSONRPC.version, id: id, result: [1, 2])))
            #expect(try JSONRPC.encodeError(id: id, error) == JSONWriter.encode(ErrorEnvelope(jsonrpc: JSONRPC.version, id: id, error: error)))
        }
        #expect(JSONRPC.encodeError(id: .number(3), error).utf8Text.hasPrefix(#"{"jsonrpc":"2.0","id":3,"error":{"#))
        // A result that cannot be written fails as it did inside the envelope, naming where.
        #expect(throws: EncodingError.self) { try JSONRPC.encodeResult(id: .number(1), ["x": Double.nan]) }
    }

    /// A value written through its own `encode(to:)`: for a post, the
    /// writer's generic path, which its path of its own must match.
    struct Conformance<T: Encodable>: Encodable {
        let value: T
        func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
    }

    /// A post has a path of its own in the writer: byte for byte what its
    /// synthesized conformance writes (keys in order, a date it does not
    /// have left out), and what JSONEncoder writes, read back.
    @Test func test_aPostIsWrittenByteForByteAsItsConformanceWritesIt() async throws {
        let posts = [
            PostDTO(
                uid: "C0FFEE00-0000-4000-8000-000000000001", title: "t \"1\" / 2", content: "line\nline\r\n\ttab \\ \u{1} é 🎉",
                createDate: "2026-11-23T00:00:00.000Z", updateDate: "2026-11-24T01:02:03.004Z"),
            PostDTO(uid: "u", title: "", content: "", createDate: nil, updateDate: nil),
            PostDTO(uid: "u", title: "only updated", content: "x", createDate: nil, updateDate: "2026-11-24T01:02:03.004Z"),
            PostDTO(uid: "u", title: "only created", content: "x", createDate: "2026-11-23T00:00:00.000Z", updateDate: nil),
        ]
        for post in posts {
            #expect(try JSONWriter.encode(post).utf8Text == JSONWriter.encode(Conformance(value: post)).utf8Text)
            try expectSame(post, "post \(post.title)")
        }
        let page = PageResult(posts: posts, nextCursor: nil)
        #expect(
            try JSONWriter.encode(page).utf8Text
                == #"{"posts":[\#(try posts.map { try JSONWriter.encode(Conformance(value: $0)).utf8Text }.joined(separator: ","))],"#
                + #""nextCursor":null}"#
        )
        try expectSame(page, "a page of posts")
    }

    /// Strings are looked at eight bytes at a time: a character to escape
    /// at any place in or across those words, beside text that is not
    /// ASCII, is escaped as when written alone.
    @Test func test_everyCharacterToEscape_isEscapedWhereverItStands() async throws {
        let escaped: [Character: String] = ["\"": #"\""#, "\\": #"\\"#, "\n": #"\n"#, "\u{1}": #"\u0001"#, "\u{1F}": #"\u001f"#]
        for (special, escape) in escaped {
            for filler in ["a", "é", "🎉"] {
                for length in [7, 8, 9, 16, 17, 24] {
                    for place in 0..<length {
                        var text = Array(repeating: Character(filler), count: length)
                        text[place] = special
                        let expected = "[\"" + text.map { $0 == special ? escape : String($0) }.joined() + "\"]"
                        #expect(try JSONWriter.encode([String(text)]).utf8Text == expected, "\(escape) at \(place) of \(length) among \(filler)")
                    }
                }
            }
        }
        let clean = String(repeating: "plain text é 🎉 ", count: 9)
        #expect(try JSONWriter.encode([clean]).utf8Text == "[\"\(clean)\"]")
    }

    @Test func test_stringsAreEscaped_andNumbersWrittenShortest() async throws {
        let text = try JSONWriter.encode(["q\"\\\n\r\t\u{8}\u{C}\u{1}\u{1F}/é"]).utf8Text
        #expect(text == #"["q\"\\\n\r\t\b\f\u0001\u001f/é"]"#)
        let edges = try JSONWriter.encode(["", "\"", "ab\u{1}", "\u{1}ab", "a\"b\"c", "plain"]).utf8Text
        #expect(edges == #"["","\"","ab\u0001","\u0001ab","a\"b\"c","plain"]"#, "escapes at either end and between runs")
        #expect(try JSONWriter.encode([1.0, 0.1, -2.5, 1e20]).utf8Text == "[1,0.1,-2.5,1e+20]")
        #expect(throws: EncodingError.self) { try JSONWriter.encode([Double.nan]) }
        #expect(throws: EncodingError.self) { try JSONWriter.encode(["x": Double.infinity]) }
    }
}

extension Data {
    fileprivate var utf8Text: String { String(decoding: self, as: UTF8.self) }
}

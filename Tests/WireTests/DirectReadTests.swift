import Domain
import Foundation
import TestSupport
import TestTraits
import Testing
import Wire

/// A page of changes (and a post) read in the pass that checks the reply
/// (`JSONDirectRead`) reads as the Decoder reads it: the same value for
/// every reply, the same error for every reply it refuses, whatever the
/// text's shape.
@Suite("Replies read directly", .ownThread, .timeLimit(.minutes(5)))
struct DirectReadTests {
    /// The same result, read through the Decoder only (a type that does not read itself).
    struct ThroughDecoder<Value: Decodable & Equatable>: Decodable, Equatable {
        var value: Value
        init(from decoder: any Decoder) throws { value = try Value(from: decoder) }
    }

    /// Each way's value, or its error's words.
    static func outcomes<Value: Decodable & Equatable>(_ reply: Data, as type: Value.Type) -> (direct: String, decoder: String) {
        let direct = Result { () throws(JSONRPCError) in try JSONRPC.decodeResponse(reply, as: Value.self) }
        let decoder = Result { () throws(JSONRPCError) in try JSONRPC.decodeResponse(reply, as: ThroughDecoder<Value>.self).value }
        func shown(_ result: Result<Value, JSONRPCError>) -> String {
            switch result {
            case .success(let value): "value \(value)"
            case .failure(let error): "error \(error.code) \(error.message)"
            }
        }
        return (shown(direct), shown(decoder))
    }

    static func reply(_ result: String) -> Data { Data(#"{"jsonrpc":"2.0","id":1,"result":\#(result)}"#.utf8) }

    @Test func test_aPageOfChanges_readsAsTheDecoderReadsIt_smallAndLarge() async throws {
        for count in [0, 3, 200] {
            let reply = try JSONRPC.encodeResult(id: .number(1), JSONRPCTests.page(count))
            #expect(try JSONRPC.decodeResponse(reply, as: ChangesResult.self) == JSONRPCTests.page(count))
            let (direct, decoder) = Self.outcomes(reply, as: ChangesResult.self)
            #expect(direct == decoder)
        }
    }

    @Test func test_shapesItDoesNotReadItself_readAsTheDecoderReadsThem() async throws {
        let post = #"{"uid":"00000000-0000-4000-8000-000000000001","title":"t","content":"c"}"#
        let shapes = [
            // Taken by both: members in another order, nulls and missing optionals, an extra member, space everywhere.
            #"{"head":2,"changes":[{"kind":"upsert","post":\#(post),"uid":"u","sequence":1}]}"#,
            #"{"changes":[{"sequence":1,"uid":"u","kind":"delete","post":null}],"head":1,"database":null}"#,
            #"{"changes":[{"sequence":1,"uid":"u","kind":"delete"}],"head":1,"database":"db","more":[1,{"a":2}]}"#,
            #" { "changes" : [ { "sequence" : 1 , "uid" : "u" , "kind" : "upsert" , "post" : \#(post) } ] , "head" : 1 } "#,
            #"{"changes":[{"sequence":1,"uid":"u","kind":"upsert","post":{"uid":"x","title":"t","content":"c","createDate":null,"x":1}}],"head":1}"#,
            // A member twice: whichever the Decoder takes.
            #"{"changes":[],"head":1,"head":2}"#,
            // Refused by both, naming the same field.
            #"{"changes":[],"head":1.0}"#,
            #"{"changes":[],"head":"1"}"#,
            #"{"changes":[{"sequence":1,"uid":"u","kind":"upsert","post":{"uid":"x","title":"\ud800","content":"c"}}],"head":1}"#,
            #"{"changes":[{"sequence":1,"uid":"u","kind":"upsert","post":{"uid":"x","title":5,"content":"c"}}],"head":1}"#,
            #"{"changes":[{"sequence":1,"uid":"u"}],"head":1}"#,
            #"{"changes":{},"head":1}"#,
            #"{"head":1}"#,
            #"[1]"#,
            #"null"#,
        ]
        for shape in shapes {
            let (direct, decoder) = Self.outcomes(Self.reply(shape), as: ChangesResult.self)
            #expect(direct == decoder, "\(shape)")
        }
        let (direct, decoder) = Self.outcomes(Self.reply(post), as: PostDTO.self)
        #expect(direct == decoder)
        #expect(direct.hasPrefix("value"))
    }

    @Test func test_mutatedReplies_readAsTheDecoderReadsThem() async throws {
        let text = Array(try JSONRPC.encodeResult(id: .number(1), JSONRPCTests.page(12)))
        // Bytes that change a reply's shape: structure, quotes, escapes, digits, literals, and a byte no text has.
        let bytes = Array(#"{}[]",:\ 0123456789.-eEnultrfas"#.utf8) + [0xC3, 0xFF]
        var random = SeededGenerator(seed: 26)
        var (read, refused) = (0, 0)
        for _ in 0..<3_000 {
            let mutated = random.broken(text, from: bytes)
            let (direct, decoder) = Self.outcomes(Data(mutated), as: ChangesResult.self)
            #expect(direct == decoder, "\(String(decoding: mutated, as: UTF8.self))")
            if direct.hasPrefix("value") { read += 1 } else { refused += 1 }
        }
        #expect(read > 100 && refused > 100, "both kinds of outcome were met: \(read) read, \(refused) refused")
    }
}

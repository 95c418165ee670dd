import Domain
import Foundation
import TestSupport
import TestTraits
import Testing
import Wire

/// The one way JSON comes in: a text checked whole (`JSONBytes`) and read
/// into a type where it lies, with no tree between. Held to the tree
/// parser's answers (JSONParserTests) on the same texts.
@Suite("The JSON reader", .ownThread, .timeLimit(.minutes(5)))
struct JSONReaderTests {
    private func checked(_ bytes: [UInt8]) -> Result<JSONBytes, JSONParseError> {
        bytes.withUnsafeBytes { text in Result { () throws(JSONParseError) in try JSONBytes(checking: text) } }
    }

    private func parsed(_ bytes: [UInt8]) -> Result<JSONValue, JSONParseError> {
        bytes.withUnsafeBytes { text in Result { () throws(JSONParseError) in try JSONValue(parsing: text) } }
    }

    /// The check refuses exactly what the parser refuses, with the same
    /// words and place, and what it keeps reads back as the parser's tree.
    /// Whether the text was kept.
    @discardableResult
    private func agree(_ bytes: [UInt8], _ label: String) -> Bool {
        switch (checked(bytes), parsed(bytes)) {
        case (.success(let text), .success(let tree)):
            #expect(text.value == tree, "\(label)")
            return true
        case (.failure(let a), .failure(let b)):
            #expect(a == b, "\(label)")
            return false
        case (let a, let b):
            Issue.record("\(label): the check says \(a), the parser \(b)")
            return false
        }
    }

    @Test func test_theCheckAgreesWithTheParser_onEveryFixtureOfItsSuite() async {
        let texts = [
            "", " ", "{", "}", "[1,]", #"{"a":1,}"#, #"{"a"}"#, #"{a:1}"#, "01", "-", "+1", ".5", "1.", "1e", "tru", "NaN",
            #""unterminated"#, #""\x""#, #""\u12""#, #""\u12G4""#, "\"tab\there\"", "[1] x", "{} {}", #""a""b""#,
            #"{"a":[{"b":"x\ud800"}]}"#, #"{"a":"\udc00"}"#, #"{"a":"\ud800\u0041"}"#, #"[0,1,"\ud800"]"#, #"{"n":1e400}"#,
            #"{"a":1,"a":2}"#, #"" \" \\ \/ \b \f \n \r \t \u00e9 \ud83d\ude00""#, "  [ 1 , 2.5 , -3e2 , true , null ]  ",
            String(repeating: "[", count: 257) + String(repeating: "]", count: 257),
        ]
        for text in texts { agree(Array(text.utf8), text) }
        agree(Array(#"{"q":{"r":"a"#.utf8) + [0xC3, 0x28] + Array(#""}}"#.utf8), "bytes that are not UTF-8")
    }

    /// Texts made by breaking a valid one a byte at a time (a fixed seed):
    /// whatever the break, the check and the parser give the same answer.
    @Test func test_theCheckAgreesWithTheParser_on20000BrokenTexts() async {
        let valid = Array(
            #"{"jsonrpc":"2.0","id":7,"method":"posts.save","params":{"post":{"uid":"7F3C2A4E-0B6D-4C1A-9E55-3D2B1A0C9F11","title":"Caf\u00e9 \"au lait\"","content":"é😀 tab\there, 1/2 \\ done"},"_meta":{"timeoutMs":900,"n":[1.5,-2e3,null,true,false]}}}"#
                .utf8)
        let alphabet = Array(#"{}[]",:\ u0123456789abcdefABCDEF-+.eE tfn"#.utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC3, 0xE2, 0xED, 0xF0, 0xF4, 0xFF]
        var random = SeededGenerator(seed: 45)
        var kept = 0
        for round in 0..<20_000 {
            let text = random.broken(valid, from: alphabet)
            if agree(text, "round \(round): \(String(decoding: text, as: UTF8.self))") { kept += 1 }
        }
        // Both answers were met, many times each.
        #expect(kept > 1_000 && kept < 19_000, "\(kept) kept")
    }

    /// Strings of every length, with escapes and characters past ASCII at
    /// every place relative to the eight-byte steps the scan takes, read
    /// back as written.
    @Test func test_stringsReadBackAsWritten_whereverTheirEscapesFall() async throws {
        let pieces = ["a", "\"", "\\", "\t", "\n", "é", "€", "😀", "/", "\u{1F}", "z", " "]
        var random = SeededGenerator(seed: 8)
        for length in 0..<80 {
            for _ in 0..<6 {
                let text = (0..<length).map { _ in pieces.randomElement(using: &random)! }.joined()
                let written = try JSONWriter.encode(["s": text])
                let read = try JSONBytes(checking: written).decode([String: String].self, root: "value")
                #expect(read == ["s": text], "\(text.debugDescription)")
                let inPlace = try written.withUnsafeBytes { bytes throws(PostsError) in
                    try JSONBytes.decode([String: String].self, from: bytes, root: "value")
                }
                #expect(inPlace == ["s": text])
            }
        }
    }

    @Test func test_whatIsUTF8IsKnownWithoutMakingAString() async {
        var random = SeededGenerator(seed: 3)
        let bytes: [UInt8] = [0x41, 0x7F, 0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xA0, 0x9F, 0xED, 0xEF, 0xF0, 0x90, 0x8F, 0xF4, 0xF5, 0xFF]
        for _ in 0..<20_000 {
            let sample = (0..<Int.random(in: 1...6, using: &random)).map { _ in bytes.randomElement(using: &random)! }
            let text = Array(#"["x"#.utf8) + sample + Array(#""]"#.utf8)
            let utf8 = String(validating: sample, as: UTF8.self) != nil
            let kept = try? checked(text).get()
            #expect((kept != nil) == utf8, "\(sample.map { String($0, radix: 16) })")
        }
    }

    private struct Post: Decodable, Equatable {
        var uid: String
        var title: String
        var note: String?
        var tags: [String]
        var count: Int
    }

    private struct Params: Decodable, Equatable {
        var posts: [Post]
    }

    private func read<T: Decodable>(_ type: T.Type, _ text: String) throws(PostsError) -> T {
        let bytes: JSONBytes
        do { bytes = try JSONBytes(checking: Data(text.utf8)) } catch { throw .invalid("test", .malformed("\(error)")) }
        return try bytes.decode(type, root: "params")
    }

    @Test func test_membersAreReadInAnyOrder_skippingOthers_theLastOfATwiceNamedOneStanding() async throws {
        let post = try read(
            Post.self, #"{"x":{"deep":[1,{"q":"\"}"}]},"count":3,"tags":["a","b\\"],"title":"first","uid":"u","title":"last","note":null}"#)
        #expect(post == Post(uid: "u", title: "last", note: nil, tags: ["a", "b\\"], count: 3))
    }

    @Test func test_aMemberOfTheWrongKindIsNamed_withWhatItWas() async {
        #expect(throws: PostsError.invalid("params.posts[1].title", .wrongType(expected: .string, actual: "5"))) {
            try read(Params.self, #"{"posts":[{"uid":"a","title":"t","tags":[],"count":1},{"uid":"b","title":5,"tags":[],"count":1}]}"#)
        }
        #expect(throws: PostsError.invalid("params.posts[0].tags[1]", .wrongType(expected: .string, actual: "an object"))) {
            try read(Params.self, #"{"posts":[{"uid":"a","title":"t","tags":["x",{}],"count":1}]}"#)
        }
        #expect(throws: PostsError.invalid("params.posts[0].count", .wrongType(expected: .integer, actual: "1.5"))) {
            try read(Params.self, #"{"posts":[{"uid":"a","title":"t","tags":[],"count":1.5}]}"#)
        }
        #expect(throws: PostsError.invalid("params.posts[0].uid", .missing)) {
            try read(Params.self, #"{"posts":[{"title":"t","tags":[],"count":1}]}"#)
        }
        #expect(throws: PostsError.invalid("params", .wrongType(expected: .object, actual: "an array"))) {
            try read(Params.self, "[]")
        }
    }

    /// Integers of every width are read as such, whatever the value in
    /// their place (an object's included: read as a value, not a struct).
    @Test func test_integersOfOtherWidths_areCheckedAsIntegers() async {
        struct Widths: Decodable { var small: Int32?, byte: UInt8? }
        #expect(throws: PostsError.invalid("params.small", .wrongType(expected: .integer, actual: "an object"))) {
            try read(Widths.self, #"{"small":{}}"#)
        }
        #expect(throws: PostsError.invalid("params.small", .wrongType(expected: .integer, actual: "a string"))) {
            try read(Widths.self, #"{"small":"7"}"#)
        }
        #expect(throws: PostsError.invalid("params.byte", .outOfRange(min: 0, max: 255, actual: "300"))) {
            try read(Widths.self, #"{"byte":300}"#)
        }
        #expect(throws: PostsError.invalid("params", .wrongType(expected: .integer, actual: "an array"))) { try read(Int32.self, "[1]") }
        #expect((try? read(Widths.self, #"{"small":-7,"byte":2e0}"#)).map { [$0.small, $0.byte.map(Int32.init)] } == [-7, 2])
    }

    @Test func test_aReplyReadInPlace_mustEndWhereItsValueEnds() async {
        let text = Array(#"{"service":"posts","head":4} x"#.utf8)
        #expect(ChangeNotice(body: text) == nil)
        #expect(ChangeNotice(body: Array(#" {"service":"posts","head":4} "#.utf8)) == ChangeNotice(service: "posts", head: 4))
    }

    /// The CLI's `--json`: the same writer, laid out for people.
    @Test func test_forPeople_keysAreSorted_datesAreText_andTheTextIsJSON() async throws {
        struct Shown: Encodable {
            var zeta = 1
            var alpha = "a/b \"c\""
            var when = Date(timeIntervalSince1970: 1_800_000_000.25)
            var list = [1.5, 2]
            var empty: [Int] = []
        }
        let text = try JSONWriter.encodeForPeople(Shown())
        #expect(
            text == """
                {
                  "alpha" : "a/b \\"c\\"",
                  "empty" : [],
                  "list" : [
                    1.5,
                    2
                  ],
                  "when" : "2027-01-15T08:00:00.250Z",
                  "zeta" : 1
                }
                """)
    }
}

import Foundation
import TestSupport
import TestTraits
import Testing
import Wire

/// The wire's own JSON parser (RFC 8259), through its public entry point.
@Suite("The JSON parser", .ownThread, .timeLimit(.minutes(5)))
struct JSONParserTests {
    private func parse(_ text: String) throws(JSONParseError) -> JSONValue { try JSONValue(parsing: Data(text.utf8)) }

    private func refusal(_ text: String) -> JSONParseError? {
        do throws(JSONParseError) { _ = try parse(text); return nil } catch { return error }
    }

    @Test func test_objectsAndArraysNest_withWhitespaceOfAllFourKindsBetweenTokens() async throws {
        let value = try parse(" \t\r\n{ \"a\" :\n[ 1 ,\t{ \"b\" : [ [ ] , { } ] } , null ] , \"c\" : true , \"d\" : false }\r\n ")
        #expect(value == ["a": [1, ["b": [[], [:]]], nil], "c": true, "d": false])
    }

    @Test func test_everyEscapeIsRead() async throws {
        #expect(try parse(#""\" \\ \/ \b \f \n \r \t""#) == .string("\" \\ / \u{8} \u{C} \n \r \t"))
        #expect(try parse(#""\u00e9\u00E9\u0041\u0000\u20AC""#) == .string("ééA\u{0}€"))
    }

    @Test func test_aSurrogatePairWrittenAsTwoEscapes_isOneCharacter() async throws {
        #expect(try parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try parse(#""a\uD834\uDD1Eb""#) == .string("a𝄞b"))
    }

    @Test func test_textThatIsNotEscaped_isKeptByteForByte() async throws {
        #expect(try parse("\"héllo 😀 ✓\"") == .string("héllo 😀 ✓"))
        #expect(try parse(#"{"ключ":"значение"}"#)["ключ"] == "значение")
    }

    @Test func test_integersStayExact_evenPastWhatADoubleHolds() async throws {
        #expect(try parse("9007199254740993") == .integer(9_007_199_254_740_993), "2^53 + 1; a double would read ...992")
        #expect(try parse("9223372036854775807") == .integer(Int64.max))
        #expect(try parse("-9223372036854775808") == .integer(Int64.min))
        #expect(try parse("0") == .integer(0) && parse("-0") == .integer(0))
    }

    @Test func test_otherNumbersAreDoubles() async throws {
        #expect(try parse("1.5") == .number(1.5))
        #expect(try parse("-2.5e1") == .number(-25))
        #expect(try parse("2E+1") == .number(20))
        #expect(try parse("1e-3") == .number(0.001))
        #expect(try parse("9223372036854775808") == .number(9_223_372_036_854_775_808), "one past Int64.max")
        guard case .number = try parse("20.0") else { Issue.record("20.0 is written as a double"); return }
    }

    @Test func test_aNumberEqualsTheSameNumberInTheOtherCase() async {
        #expect(JSONValue.integer(20) == .number(20.0))
        #expect(Set<JSONValue>([.integer(20), .number(20.0)]).count == 1)
        #expect(JSONValue.integer(20) != .number(20.5))
    }

    @Test(arguments: [
        "", " ", "{", "}", "[1,]", #"{"a":1,}"#, #"{"a"}"#, #"{a:1}"#, "{'a':1}", "01", "-", "+1", ".5", "1.", "1e", "1e+",
        "tru", "nul", "NaN", "Infinity", #""unterminated"#, #""\x""#, #""\u12""#, #""\u12G4""#, "\"tab\there\"", "\"new\nline\"",
    ])
    func test_whatIsNotJSON_isRefusedWithTheByteWhereItStops(_ text: String) async {
        let error = refusal(text)
        #expect(error != nil, "\(text) was accepted")
        #expect(error?.offset != nil)
    }

    @Test(arguments: ["[1] x", "{} {}", "1 2", #""a""b""#, "null,"])
    func test_textAfterTheValue_isRefused(_ text: String) async {
        #expect(refusal(text)?.description.contains("after the end") == true, "\(text)")
    }

    @Test func test_nestingIsBounded_soNoInputCanExhaustTheStack() async throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(refusal(deep)?.description.contains("nested more than 256 deep") == true)
        let atLimit = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
        #expect(throws: Never.self) { try parse(atLimit) }
        let overLimit = String(repeating: #"{"a":"#, count: 257) + "1" + String(repeating: "}", count: 257)
        #expect(refusal(overLimit)?.description.contains("nested") == true)
    }

    @Test(arguments: [
        (#"{"a":[{"b":"x\ud800"}]}"#, "a[0].b"),
        (#"{"a":"\udc00"}"#, "a"),
        (#"{"a":"\ud800\u0041"}"#, "a"),
        (#"[0,1,"\ud800"]"#, "[2]"),
    ])
    func test_aLoneSurrogateIsRefused_namingWhereItIs(_ text: String, _ path: String) async {
        let error = refusal(text)
        #expect(error?.path == path)
        #expect(error?.description.contains("lone surrogate") == true)
    }

    @Test func test_bytesThatAreNotUTF8AreRefused_namingWhereTheyAre() async {
        var data = Data(#"{"q":{"r":"a"#.utf8)
        data.append(contentsOf: [0xC3, 0x28])
        data.append(contentsOf: Array(#""}}"#.utf8))
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: data) }
        #expect((try? JSONValue(parsing: data)) == nil)
        do throws(JSONParseError) { _ = try JSONValue(parsing: data) } catch {
            #expect(error.path == "q.r" && error.description.contains("not UTF-8"))
        }
    }

    @Test func test_aNumberTooLargeForADouble_isRefusedAsWritten() async {
        let error = refusal(#"{"n":1e400}"#)
        #expect(error?.path == "n" && error?.description.contains("1e400") == true)
    }

    @Test func test_aNameGivenTwice_keepsTheLastValue() async throws {
        #expect(try parse(#"{"a":1,"a":2}"#) == ["a": 2])
    }

    @Test func test_whatIsWrittenIsReadBackEqual() async throws {
        let value: JSONValue = ["a": [1, "two", true, nil, 2.5], "b": ["c": .integer(Int64.max)], "d": "\u{0}\u{1F}\"\\😀"]
        #expect(try JSONValue(parsing: JSONEncoder().encode(value)) == value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value)) == value)
    }
}

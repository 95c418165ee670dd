import Domain
import Foundation
import TestSupport
import TestTraits
import Testing
import Wire

/// What a peer that sends bad input is told: the code, the field where it
/// is, what was wrong in JSON's words, and never a Swift type name.
@Suite("Bad requests, named", .ownThread, .timeLimit(.minutes(5)))
struct BadRequestTests {
    static let swiftNames = ["Dictionary", "String", "Int", "Optional", "Array<", "Params", "Double", "Decod", "Swift."]

    private func request(id: String = "1", _ params: String) -> String { #"{"jsonrpc":"2.0","id":\#(id),"method":"m","params":\#(params)}"# }

    private func refusal(_ json: String) -> JSONRPC.RequestFailure? {
        switch JSONRPC.decodeRequest(Data(json.utf8)) {
        case .failure(let failure): failure
        case .success: nil
        }
    }

    private func paramsError<T: Decodable>(_ json: String, as type: T.Type) throws -> JSONRPCError {
        let request = try JSONRPC.decodeRequest(Data(json.utf8)).get()
        return try #require(throws: JSONRPCError.self) { try request.params(type) }
    }

    private func expectNoSwiftNames(_ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!Self.swiftNames.contains { message.contains($0) }, "\(message)", sourceLocation: sourceLocation)
    }

    @Test func test_aLimitOf1point5_isAWrongTypeNamingParamsLimit() async throws {
        let error = try paramsError(request(#"{"limit":1.5}"#), as: ListParams.self)
        #expect(error.code == .invalidParams)
        #expect(error.message == "params.limit must be an integer (got 1.5)")
        #expect(error.data == ["field": "params.limit", "reason": "wrongType", "expected": "integer", "actual": "1.5"])
        expectNoSwiftNames(error.message)
    }

    @Test func test_anAfterOf1e20_isOutOfRange_asWritten() async throws {
        let error = try paramsError(request(#"{"after":1e20}"#), as: ChangesParams.self)
        #expect(error.code == .invalidParams)
        #expect(error.message == "params.after must be an integer from -9223372036854775808 to 9223372036854775807 (got 1e20)")
        #expect(PostsError(error) == .invalid("after", .outOfRange(min: Int64.min, max: Int64.max, actual: "1e20")))
        expectNoSwiftNames(error.message)
    }

    @Test(arguments: [
        (#"{"limit":"ten"}"#, "params.limit must be an integer (got a string)"),
        (#"{"limit":true}"#, "params.limit must be an integer (got true)"),
        (#"{"cursor":5}"#, "params.cursor must be a string (got 5)"),
        (#"{"cursor":{}}"#, "params.cursor must be a string (got an object)"),
        ("[]", "params must be an object (got an array)"),
    ])
    func test_aValueOfTheWrongKind_isNamedInJSONsWords(_ params: String, _ message: String) async throws {
        let error = try paramsError(request(params), as: ListParams.self)
        #expect(error.code == .invalidParams && error.message == message)
        expectNoSwiftNames(error.message)
    }

    @Test(arguments: ["20", "20.0", "2e1", "2.0E+1"])
    func test_aLimitWithoutAFraction_isAnInteger_howeverWritten(_ limit: String) async throws {
        let request = try JSONRPC.decodeRequest(Data(request(#"{"limit":\#(limit)}"#).utf8)).get()
        #expect(try request.params(ListParams.self).limit == 20)
    }

    @Test func test_anAfterPast2to53_arrivesExact() async throws {
        let request = try JSONRPC.decodeRequest(Data(request(#"{"after":9007199254740993}"#).utf8)).get()
        #expect(try request.params(ChangesParams.self).after == 9_007_199_254_740_993)
    }

    @Test func test_aLoneSurrogateInParamsPostTitle_isAnInvalidField_answeredUnderTheRequestsId() async throws {
        let failure = try #require(refusal(request(id: "42", #"{"post":{"uid":"u","title":"bad \ud800 text","content":""}}"#)))
        #expect(failure.id == .number(42))
        #expect(failure.error.code == .invalidParams)
        #expect(failure.error.data?["field"] == "params.post.title" && failure.error.data?["reason"] == "notText")
        #expect(failure.error.message == #"params.post.title must be Unicode text (it holds a lone surrogate \uD800)"#)
        #expect(PostsError(failure.error) == .invalid("post.title", .notText(#"it holds a lone surrogate \uD800"#)))
        expectNoSwiftNames(failure.error.message)
    }

    @Test func test_bytesThatAreNotUTF8InAParam_areAnInvalidFieldNamingIt() async throws {
        var data = Data(request(#"{"posts":[{},{"title":"a"#).utf8)
        data.append(contentsOf: [0xFF, 0xFE])
        data.append(contentsOf: Array(#""}]}}"#.utf8))
        guard case .failure(let failure) = JSONRPC.decodeRequest(data) else { Issue.record("accepted"); return }
        #expect(failure.error.code == .invalidParams && failure.error.data?["field"] == "params.posts[1].title")
    }

    /// Overlong forms, encoded surrogates, past U+10FFFF, cut short, a lone
    /// continuation byte: each is refused, wherever it stands in the text.
    @Test(arguments: [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80]] as [[UInt8]])
    func test_everyKindOfBytesThatAreNotUTF8_isRefused(_ bad: [UInt8]) async throws {
        for (before, after) in [("", ""), ("ab", ""), ("", "cd"), ("é", "😀")] {
            var data = Data(request(#"{"post":{"uid":"u","content":"","title":"\#(before)"#).utf8)
            data.append(contentsOf: bad)
            data.append(contentsOf: Array(#"\#(after)"}}}"#.utf8))  // request(_:) closed the text early: its "}" is in the title
            guard case .failure(let failure) = JSONRPC.decodeRequest(data) else { Issue.record("accepted \(bad) after '\(before)'"); continue }
            #expect(failure.error.data?["field"] == "params.post.title" && failure.error.data?["reason"] == "notText")
        }
    }

    @Test func test_textThatIsUTF8_isReadAsItIs_evenU_FFFDItself() async throws {
        for text in ["plain", "é", "😀 ✓ \u{FFFD}", "\u{10FFFF}", "\u{7F}"] {
            let request = try JSONRPC.decodeRequest(Data(request(#"{"uid":"\#(text)"}"#).utf8)).get()
            #expect(try request.params(UIDParams.self).uid == text)
        }
    }

    @Test func test_aLoneSurrogateOutsideParams_isAnInvalidRequest() async throws {
        let inMethod = try #require(refusal(#"{"jsonrpc":"2.0","id":"a","method":"m\udfff"}"#))
        #expect(inMethod.error.code == .invalidRequest && inMethod.id == .string("a"))
        #expect(inMethod.error.message.contains("method must be Unicode text"))
        let inID = try #require(refusal(#"{"jsonrpc":"2.0","id":"a\ud800","method":"m"}"#))
        #expect(inID.error.code == .invalidRequest && inID.id == .null, "an id that is not text is not answered under")
    }

    @Test func test_aNumberTooLargeToRead_isAnInvalidFieldNamingIt() async throws {
        let failure = try #require(refusal(request(#"{"limit":1e400}"#)))
        #expect(failure.error.code == .invalidParams && failure.error.data?["field"] == "params.limit")
        #expect(failure.error.message == "params.limit is a number too large to read (got 1e400)")
    }

    @Test(arguments: [("1.5", "1.5"), ("true", "true"), ("{}", "an object"), ("[]", "an array"), ("1e20", "1e20")])
    func test_anIdThatIsNotAStringAnIntegerOrNull_isAnInvalidRequest_answeredToNull(_ id: String, _ shown: String) async throws {
        let failure = try #require(refusal(#"{"jsonrpc":"2.0","id":\#(id),"method":"m"}"#))
        #expect(failure.id == .null && failure.error.code == .invalidRequest)
        #expect(failure.error.message.contains("id must be a string, an integer or null (got \(shown))"), "\(failure.error.message)")
        expectNoSwiftNames(failure.error.message)
    }

    @Test(arguments: [(#""x""#, JSONRPCID.string("x")), ("7", .number(7)), ("-7", .number(-7)), ("7.0", .number(7)), ("null", .null)])
    func test_stringIntegerAndNullIdsAreAccepted(_ id: String, _ expected: JSONRPCID) async throws {
        #expect(try JSONRPC.decodeRequest(Data(#"{"jsonrpc":"2.0","id":\#(id),"method":"m"}"#.utf8)).get().id == expected)
    }

    @Test func test_aRequestWithoutAnId_isServedAndAnsweredToNull() async throws {
        #expect(try JSONRPC.decodeRequest(Data(#"{"jsonrpc":"2.0","method":"m"}"#.utf8)).get().id == .null)
    }

    @Test func test_paramsNullOrAbsentWhereAnObjectIsNeeded_saySo() async throws {
        for json in [request("null"), #"{"jsonrpc":"2.0","id":1,"method":"m"}"#] {
            let error = try paramsError(json, as: SaveParams.self)
            #expect(error.code == .invalidParams && error.message == "params must be an object (got null)")
            #expect(error.data == ["field": "params", "reason": "wrongType", "expected": "object", "actual": "null"])
            #expect(PostsError(error) == .invalid("params", .wrongType(expected: .object, actual: "null")))
            expectNoSwiftNames(error.message)
        }
    }

    @Test(arguments: [
        (#"{}"#, "params.post is required"),
        (#"{"post":{"uid":"u","content":""}}"#, "params.post.title is required"),
        (#"{"post":null}"#, "params.post must be an object (got null)"),
        (#"{"post":{"uid":5,"title":"t","content":""}}"#, "params.post.uid must be a string (got 5)"),
        (#"{"post":{"uid":"u","title":"t","content":"","createDate":false}}"#, "params.post.createDate must be a string (got false)"),
    ])
    func test_aMissingOrWrongFieldOfASave_isNamedWhereItIs(_ params: String, _ message: String) async throws {
        let error = try paramsError(request(params), as: SaveParams.self)
        #expect(error.code == .invalidParams && error.message == message)
        expectNoSwiftNames(error.message)
    }

    @Test func test_aMissingFieldInABatch_isNamedWithItsIndex() async throws {
        let post = #"{"uid":"u","title":"t","content":""}"#
        let error = try paramsError(request(#"{"posts":[\#(post),\#(post),\#(post),{"title":"t","content":""}]}"#), as: SaveManyParams.self)
        #expect(error.message == "params.posts[3].uid is required")
        #expect(error.data == ["field": "params.posts[3].uid", "reason": "missing"])
        #expect(PostsError(error) == .invalid("posts[3].uid", .missing))
    }

    @Test(arguments: [#""params":5"#, #""params":"x""#, #""params":true"#])
    func test_paramsThatAreNotStructured_areAnInvalidRequest(_ member: String) async throws {
        let failure = try #require(refusal(#"{"jsonrpc":"2.0","id":1,"method":"m",\#(member)}"#))
        #expect(failure.error.code == .invalidRequest && failure.error.message.contains("params must be an object or an array"))
        #expect(failure.id == .number(1))
    }

    @Test(arguments: [
        (#"{"id":1,"method":"m"}"#, "jsonrpc must be '2.0' (got nothing)"),
        (#"{"jsonrpc":"1.0","id":1,"method":"m"}"#, "jsonrpc must be '2.0' (got '1.0')"),
        (#"{"jsonrpc":"2.0","id":1}"#, "method must be a non-empty string (got nothing)"),
        (#"{"jsonrpc":"2.0","id":1,"method":""}"#, "method must be a non-empty string (got an empty string)"),
        (#"{"jsonrpc":"2.0","id":1,"method":7}"#, "method must be a non-empty string (got 7)"),
    ])
    func test_anEnvelopeThatIsNotJSONRPC2_saysWhichMemberIsWrong_underItsId(_ json: String, _ detail: String) async throws {
        let failure = try #require(refusal(json))
        #expect(failure.error.code == .invalidRequest && failure.id == .number(1))
        #expect(failure.error.message == "not a JSON-RPC 2.0 request: \(detail)")
    }

    @Test(arguments: [("[1]", "an array"), (#""posts.get""#, "a string"), ("5", "5"), ("null", "null")])
    func test_aRequestThatIsNotAnObject_isAnInvalidRequest_answeredToNull(_ body: String, _ shown: String) async throws {
        let failure = try #require(refusal(body))
        #expect(failure.error.code == .invalidRequest && failure.id == .null)
        #expect(failure.error.message == "not a JSON-RPC 2.0 request: the request must be an object (got \(shown))")
    }

    /// A member named twice counts once, as written last (as a JSON
    /// object read into a dictionary would have it).
    @Test func test_aMemberNamedTwice_isReadAsWrittenLast_andOthersAreIgnored() async throws {
        let request = try JSONRPC.decodeRequest(
            Data(#"{"jsonrpc":"1.0","id":1,"method":"a","x":[{}],"params":{"q":1},"jsonrpc":"2.0","id":"b","method":"m","params":[2]}"#.utf8)
        ).get()
        #expect(request.id == .string("b") && request.method == "m" && request.params?.value == [2])
        let failure = try #require(refusal(#"{"jsonrpc":"2.0","id":1,"method":"m","method":7}"#))
        #expect(failure.error.message == "not a JSON-RPC 2.0 request: method must be a non-empty string (got 7)")
    }

    @Test(arguments: ["{not json", "", #"{"jsonrpc":"2.0","id":1,"method":"m"} x"#])
    func test_aBodyThatIsNotJSON_isAParseError_answeredToNull(_ body: String) async throws {
        let failure = try #require(refusal(body))
        #expect(failure.error.code == .parseError && failure.id == .null)
        #expect(failure.error.message.contains("at byte"))
    }

    @Test func test_aBodyNestedTooDeep_isAParseError_notACrash() async throws {
        let failure = try #require(refusal(String(repeating: "[", count: 100_000)))
        #expect(failure.error.code == .parseError && failure.error.message.contains("nested more than 256 deep"))
    }
}

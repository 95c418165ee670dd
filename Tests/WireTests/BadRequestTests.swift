import Domain
import Foundation
import Testing
import Wire

/// What a peer that sends bad input is told: the field, what was wrong,
/// in JSON's words, never a Swift type name.
@Suite("Bad requests, named")
struct BadRequestTests {
    struct ListParams: Codable { var limit: Int?; var cursor: String? }
    struct ChangesParams: Codable { var after: Int64; var limit: Int? }
    struct Post: Codable { var uid: String; var title: String }
    struct SaveParams: Codable { var post: Post }

    static let swiftNames = ["Dictionary", "String", "Int", "Optional", "Array<", "Params", "Double", "Decod"]

    private func failure(_ json: String) -> JSONRPCError? {
        switch JSONRPC.decodeRequest(Data(json.utf8)) {
        case .failure(let failure): failure.error
        case .success: nil
        }
    }

    private func paramsError<T: Decodable>(_ json: String, as type: T.Type) throws -> JSONRPCError {
        let request = try JSONRPC.decodeRequest(Data(json.utf8)).get()
        return try #require(throws: JSONRPCError.self) { try request.params(type) }
    }

    private func request(_ params: String) -> String { #"{"jsonrpc":"2.0","id":1,"method":"m","params":\#(params)}"# }

    @Test(arguments: [
        (#"{"limit":1.5}"#, "params.limit", "params.limit must be an integer (got 1.5)"),
        (#"{"limit":"ten"}"#, "params.limit", "params.limit must be an integer (got a string)"),
        (#"{"limit":1e20}"#, "params.limit", "params.limit must be an integer from -9223372036854775808 to 9223372036854775807 (got 1e+20)"),
        (#"{"cursor":5}"#, "params.cursor", "params.cursor must be a string (got 5)"),
    ])
    func test_aBadNumberOrStringNamesItsField_inJSONsWords(_ params: String, _ field: String, _ message: String) throws {
        let error = try paramsError(request(params), as: ListParams.self)
        #expect(error.code == .invalidParams)
        #expect(error.data?["field"] == .string(field))
        #expect(error.message == message)
        #expect(!Self.swiftNames.contains { error.message.contains($0) }, "\(error.message)")
    }

    @Test func test_anAfterOf1e20IsOutOfRange_notUnparseable() throws {
        let error = try paramsError(request(#"{"after":1e20}"#), as: ChangesParams.self)
        #expect(PostsError(error) == .invalid("after", .outOfRange(min: Int64.min, max: Int64.max, actual: "1e+20")))
    }

    @Test func test_aLoneSurrogateInATitleIsAnInvalidField_notAParseError() {
        let error = failure(request(#"{"post":{"uid":"u","title":"bad \ud800 text"}}"#))
        #expect(error?.code == .invalidParams)
        #expect(error?.data?["field"] == "params.post.title" && error?.data?["reason"] == "notText")
        #expect(error?.message.contains("lone surrogate") == true)
        let pair = try? JSONRPC.decodeRequest(Data(request(#"{"post":{"uid":"u","title":"ok \ud83d\ude00"}}"#).utf8)).get().params(SaveParams.self)
        #expect(pair?.post.title == "ok 😀", "a surrogate pair is one character")
    }

    @Test func test_paramsNullOrMissingWhereAnObjectIsNeeded_saySo() throws {
        #expect(try paramsError(request("null"), as: SaveParams.self).message == "params must be an object (got null)")
        #expect(try paramsError(#"{"jsonrpc":"2.0","id":1,"method":"m"}"#, as: SaveParams.self).message == "params must be an object (got null)")
        #expect(try paramsError(request("{}"), as: SaveParams.self).message == "params.post is required")
        #expect(try paramsError(request(#"{"post":[]}"#), as: SaveParams.self).message == "params.post must be an object (got an array)")
    }

    @Test(arguments: ["1.5", "true", "{}", "[]"])
    func test_anIdThatIsNotAStringAnIntegerOrNull_isAnInvalidRequest_answeredToNull(_ id: String) {
        guard case .failure(let failure) = JSONRPC.decodeRequest(Data(#"{"jsonrpc":"2.0","id":\#(id),"method":"m"}"#.utf8)) else {
            Issue.record("accepted id \(id)")
            return
        }
        #expect(failure.id == .null && failure.error.code == .invalidRequest)
        #expect(failure.error.message.contains("id must be a string, an integer or null"))
        #expect(!Self.swiftNames.contains { failure.error.message.contains($0) })
    }

    @Test(arguments: [#"{"jsonrpc":"2.0","id":7,"method":"m"}"#, #"{"jsonrpc":"2.0","id":"x","method":"m"}"#, #"{"jsonrpc":"2.0","id":null,"method":"m"}"#])
    func test_stringIntegerAndNullIdsAreAccepted(_ json: String) {
        #expect((try? JSONRPC.decodeRequest(Data(json.utf8)).get()) != nil)
    }

    @Test(arguments: [#""params":5"#, #""params":"x""#, #""params":true"#])
    func test_paramsThatAreNotStructured_areAnInvalidRequest(_ member: String) {
        let error = failure(#"{"jsonrpc":"2.0","id":1,"method":"m",\#(member)}"#)
        #expect(error?.code == .invalidRequest && error?.message.contains("params must be an object or an array") == true)
    }
}

@Suite("The request parser")
struct JSONParserTests {
    private func params(_ json: String) throws -> JSONValue? {
        try JSONRPC.decodeRequest(Data(#"{"jsonrpc":"2.0","id":1,"method":"m","params":\#(json)}"#.utf8)).get().params
    }

    @Test func test_nestingEscapesNumbersAndWhitespaceAreRead() throws {
        let value = try params(" { \"a\" : [ 1 , -2.5e1 , true , false , null , { } , [ ] ] , \"b\\n\\u00e9\\\"\" : \"x\\/y\\t\" } ")
        #expect(value == ["a": [1, .number(-25), true, false, nil, [:], []], "b\n\u{e9}\"": "x/y\t"])
    }

    @Test(arguments: ["{", #"{"a":}"#, "[1,]", "01", "1.", "-", #""a\x""#, "[1] x", "\"tab\there\"", "nul"])
    func test_whatIsNotJSONIsAParseError(_ json: String) {
        guard case .failure(let failure) = JSONRPC.decodeRequest(Data(#"{"jsonrpc":"2.0","id":1,"method":"m","params":\#(json)}"#.utf8)) else {
            Issue.record("\(json) was accepted")
            return
        }
        #expect(failure.error.code == .parseError)
    }

    @Test func test_deepNestingIsRefused_notACrash() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        guard case .failure(let failure) = JSONRPC.decodeRequest(Data(deep.utf8)) else {
            Issue.record("accepted")
            return
        }
        #expect(failure.error.code == .parseError && failure.error.message.contains("nested"))
    }

    @Test func test_bytesThatAreNotUTF8InAParamAreAnInvalidField() {
        var data = Data(#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"q":"a"#.utf8)
        data.append(contentsOf: [0xFF, 0xFE])
        data.append(contentsOf: Array(#""}}"#.utf8))
        guard case .failure(let failure) = JSONRPC.decodeRequest(data) else {
            Issue.record("accepted")
            return
        }
        #expect(failure.error.code == .invalidParams && failure.error.data?["field"] == "params.q")
    }
}

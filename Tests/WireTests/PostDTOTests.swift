import Domain
import Foundation
import Testing
import Wire

@Suite("Posts on the wire")
struct PostDTOTests {
    @Test func test_aPostRoundTripsThroughItsDTO_keepingBothDatesExactToTheMillisecond() throws {
        let created = try PostDate.parse("9999-12-31T23:59:59.999Z", field: "d")
        let post = Post(uid: UUID(), title: "t", content: "c", createDate: created, updateDate: try PostDate.parse("0001-01-01T00:00:00.001Z", field: "d"))
        let dto = PostDTO(domain: post)
        #expect(dto.createDate == "9999-12-31T23:59:59.999Z" && dto.updateDate == "0001-01-01T00:00:00.001Z")
        let back = try dto.toDomain()
        #expect(back.uid == post.uid && back.title == "t" && back.content == "c")
        #expect(PostDate.milliseconds(back.createDate) == PostDate.latest)
    }

    @Test func test_aBadUIDOrDateNamesTheField() {
        #expect(throws: PostsError.invalid("post.uid", .notUUID("x"))) { try PostDTO(uid: "x", title: "t", content: "").toDomain() }
        #expect(throws: PostsError.invalid("post.createDate", .notDate("yesterday"))) {
            try PostDTO(uid: UUID().uuidString, title: "t", content: "", createDate: "yesterday").toDomain()
        }
        #expect(throws: PostsError.invalid("posts[2].createDate", .dateOutOfRange("0000-12-31T23:59:59.999Z"))) {
            try PostDTO(uid: UUID().uuidString, title: "t", content: "", createDate: "0000-12-31T23:59:59.999Z").toDomain(field: "posts[2]")
        }
    }
}

/// Every use-case error crosses the wire as data a client rebuilds exactly.
@Suite("Use-case errors on the wire")
struct PostsErrorWireTests {
    static let uid = UUID()
    static let reasons: [InvalidField.Reason] = [
        .missing, .empty, .tooLong(max: 200, actual: 250, unit: .characters), .tooLong(max: 1000, actual: 1001, unit: .entries),
        .outOfRange(min: 0, max: Int64.max, actual: "1e20"), .outOfRange(min: Int64.min, max: -1, actual: "0"),
        .wrongType(expected: .integer, actual: "1.5"), .notUUID("42"), .notDate("soon"), .dateOutOfRange("+10000-01-01T00:00:00.000Z"),
        .forbiddenCharacter(0), .notText("a lone surrogate"), .unknownCursor("page-2"), .unreadable(path: "/x"), .malformed("is not a post"),
    ]
    static let errors: [PostsError] = reasons.map { .invalid("posts[3].title", $0) } + [
        .notFound(uid: uid), .conflict(uid: uid),
        .unavailable(.noAnswer(endpoint: "ipc:///tmp/g.ipc", seconds: 2)), .unavailable(.noWorker(service: "posts")),
        .unavailable(.shuttingDown), .unavailable(.store("connection refused")),
        .busy(.clientLimit(1000)), .busy(.queueFull(service: "search", limit: 10)), .busy(.store),
        .timeout(seconds: 10), .tooLarge(bytes: 20_000_000, limit: 16_777_216), .failed("disk full"),
    ]

    @Test(arguments: errors)
    func test_anErrorBecomesAJSONRPCError_andTheClientRebuildsExactlyTheSameCase(_ error: PostsError) throws {
        let reply = JSONRPC.encodeError(id: .number(1), JSONRPCError(error))
        let decoded = #expect(throws: JSONRPCError.self) { try JSONRPC.decodeResponse(reply, as: JSONValue.self) }
        #expect(decoded.map(PostsError.init) == error)
    }

    @Test func test_anInvalidFieldIsNamedWhereItIsInTheRequest_withItsNumbers() {
        let error = JSONRPCError(PostsError.invalid("title", .tooLong(max: 200, actual: 250, unit: .characters)))
        #expect(error.code == .invalidParams)
        #expect(error.message == "params.title must be at most 200 characters (it has 250)")
        #expect(error.data == ["field": "params.title", "reason": "tooLong", "max": 200, "actual": 250, "unit": "characters"])
    }

    @Test func test_anErrorWithoutDocumentedData_isKeptAsItsMessage() {
        let foreign = JSONRPCError(.serviceUnavailable, "their worker is down")
        #expect(PostsError(foreign) == .failed("their worker is down [-32003 (service unavailable)]"))
    }
}

import Domain
import Foundation
import TestSupport
import TestTraits
import Testing
import Wire

/// Every use-case error crosses the wire as documented data that a client
/// rebuilds exactly, whatever the message says.
@Suite("Use-case errors on the wire", .ownThread, .timeLimit(.minutes(5)))
struct PostsErrorWireTests {
    static let uid = UUID(uuidString: "7F3C2A4E-0B6D-4C1A-9E55-3D2B1A0C9F11")!

    static let reasons: [InvalidField.Reason] =
        [.missing, .empty]
        + LengthUnit.allCases.map { .tooLong(max: 200, actual: 250, unit: $0) }
        + [.outOfRange(min: 0, max: Int64.max, actual: "1e20"), .outOfRange(min: Int64.min, max: -1, actual: "0")]
        + ValueKind.allCases.map { .wrongType(expected: $0, actual: "1.5") }
        + [
            .notUUID("42"), .notDate("soon"), .dateOutOfRange("+10000-01-01T00:00:00.000Z"), .forbiddenCharacter(0),
            .forbiddenCharacter(0x10FFFF), .notText("it holds a lone surrogate \\uD800"), .unknownCursor("page-2"),
            .unreadable(path: "/x"), .malformed("is not a post"),
        ]

    static let errors: [PostsError] =
        reasons.map { .invalid("posts[3].title", $0) } + [
            .invalid("title", .empty), .invalid("params", .wrongType(expected: .object, actual: "null")),
            .notFound(uid: uid), .conflict(uid: uid),
            .unavailable(.noAnswer(endpoint: "ipc:///tmp/g.ipc", seconds: 2.5)), .unavailable(.noWorker(service: "posts")),
            .unavailable(.shuttingDown), .unavailable(.interrupted(service: "posts")), .unavailable(.store("connection refused")),
            .unavailable(.permissionDenied(endpoint: "ipc:///run/other/gateway.ipc")),
            .unavailable(.notAdmitted(endpoint: "tcp://g:5555", detail: "its CURVE key is not on the gateway's allow-list")),
            .busy(.clientLimit(1000)), .busy(.queueFull(service: "search", limit: 10)), .busy(.store),
            .timeout(seconds: 10), .timeout(seconds: 0.25), .tooLarge(bytes: 20_000_000, limit: 16_777_216), .failed("disk full"),
        ]

    /// The name of each case, by an exhaustive switch: a case added to
    /// Domain stops this compiling until the samples above cover it.
    static func caseName(_ error: PostsError) -> String {
        switch error {
        case .invalid(let invalid):
            switch invalid.reason {
            case .missing: "missing"
            case .empty: "empty"
            case .tooLong: "tooLong"
            case .outOfRange: "outOfRange"
            case .wrongType: "wrongType"
            case .notUUID: "notUUID"
            case .notDate: "notDate"
            case .dateOutOfRange: "dateOutOfRange"
            case .forbiddenCharacter: "forbiddenCharacter"
            case .notText: "notText"
            case .unknownCursor: "unknownCursor"
            case .unreadable: "unreadable"
            case .malformed: "malformed"
            }
        case .notFound: "notFound"
        case .conflict: "conflict"
        case .unavailable(.noAnswer): "noAnswer"
        case .unavailable(.noWorker): "noWorker"
        case .unavailable(.shuttingDown): "shuttingDown"
        case .unavailable(.interrupted): "interrupted"
        case .unavailable(.store): "unavailableStore"
        case .unavailable(.permissionDenied): "permissionDenied"
        case .unavailable(.notAdmitted): "notAdmitted"
        case .busy(.clientLimit): "clientLimit"
        case .busy(.queueFull): "queueFull"
        case .busy(.store): "busyStore"
        case .timeout: "timeout"
        case .tooLarge: "tooLarge"
        case .failed: "failed"
        }
    }

    @Test func test_theSamplesCoverEveryCaseAndEveryReason() async {
        let all: Set = [
            "missing", "empty", "tooLong", "outOfRange", "wrongType", "notUUID", "notDate", "dateOutOfRange",
            "forbiddenCharacter", "notText", "unknownCursor", "unreadable", "malformed", "notFound", "conflict",
            "noAnswer", "noWorker", "shuttingDown", "interrupted", "unavailableStore", "permissionDenied", "notAdmitted", "clientLimit", "queueFull",
            "busyStore", "timeout", "tooLarge", "failed",
        ]
        #expect(Set(Self.errors.map(Self.caseName)) == all)
    }

    @Test(arguments: errors)
    func test_anErrorCrossesTheWireAsBytes_andTheClientRebuildsExactlyTheSameCase(_ error: PostsError) async throws {
        let reply = JSONRPC.encodeError(id: .number(1), JSONRPCError(error))
        let received = try #require(throws: JSONRPCError.self) { try JSONRPC.decodeResponse(reply, as: JSONValue.self) }
        #expect(received == JSONRPCError(error))
        #expect(PostsError(received) == error)
    }

    @Test(arguments: errors)
    func test_theCaseIsRebuiltFromDataAlone_neverFromTheMessage(_ error: PostsError) async {
        var sent = JSONRPCError(error)
        guard sent.data != nil else { return }
        sent.message = "words of the sender's own"
        #expect(PostsError(sent) == error)
    }

    static let shapes: [(PostsError, JSONRPCErrorCode, JSONValue?)] = [
        (
            .invalid("title", .tooLong(max: 200, actual: 250, unit: .characters)), .invalidParams,
            ["field": "params.title", "reason": "tooLong", "max": 200, "actual": 250, "unit": "characters"]
        ),
        (
            .invalid("after", .outOfRange(min: 0, max: Int64.max, actual: "1e20")), .invalidParams,
            ["field": "params.after", "reason": "outOfRange", "min": "0", "max": "9223372036854775807", "actual": "1e20"]
        ),
        (
            .invalid("post.content", .forbiddenCharacter(0)), .invalidParams,
            ["field": "params.post.content", "reason": "forbiddenCharacter", "codePoint": 0]
        ),
        (.notFound(uid: uid), .notFound, ["uid": "7F3C2A4E-0B6D-4C1A-9E55-3D2B1A0C9F11"]),
        (.conflict(uid: uid), .conflict, ["uid": "7F3C2A4E-0B6D-4C1A-9E55-3D2B1A0C9F11"]),
        (.unavailable(.noWorker(service: "posts")), .serviceUnavailable, ["reason": "noWorker", "service": "posts"]),
        (
            .unavailable(.noAnswer(endpoint: "tcp://g:5555", seconds: 3)), .serviceUnavailable,
            ["reason": "noAnswer", "endpoint": "tcp://g:5555", "seconds": 3]
        ),
        (.unavailable(.shuttingDown), .serviceUnavailable, ["reason": "shuttingDown"]),
        (.unavailable(.store("locked")), .serviceUnavailable, ["reason": "store", "detail": "locked"]),
        (.busy(.clientLimit(1000)), .busy, ["reason": "clientLimit", "limit": 1000]),
        (.busy(.queueFull(service: "posts", limit: 10000)), .busy, ["reason": "queueFull", "service": "posts", "limit": 10000]),
        (.busy(.store), .busy, ["reason": "store"]),
        (.timeout(seconds: 2.5), .timeout, ["seconds": 2.5]),
        (.tooLarge(bytes: 20, limit: 10), .tooLarge, ["bytes": 20, "limit": 10]),
        (.failed("disk full"), .internalError, nil),
    ]

    @Test(arguments: shapes)
    func test_theDataIsTheDocumentedShape(_ error: PostsError, _ code: JSONRPCErrorCode, _ data: JSONValue?) async {
        let wire = JSONRPCError(error)
        #expect(wire.code == code)
        #expect(wire.data == data)
        if case .invalid(let invalid) = error { #expect(wire.message == "params.\(invalid)") } else { #expect(wire.message == error.description) }
    }

    @Test func test_theGatewaysOwnWords_keepTheDocumentedData() async {
        let refusal = JSONRPCError(
            .unavailable(.noWorker(service: "posts")), message: "service 'posts' is unavailable: no worker took the request within 5000 ms")
        #expect(refusal.code == .serviceUnavailable && refusal.data == ["reason": "noWorker", "service": "posts"])
        #expect(PostsError(refusal) == .unavailable(.noWorker(service: "posts")))
    }

    @Test(arguments: [
        JSONRPCError(.serviceUnavailable, "their worker is down"),
        JSONRPCError(.serviceUnavailable, "their worker is down", data: ["service": "posts"]),
        JSONRPCError(.busy, "their worker is down", data: ["reason": "tooManyCats"]),
        JSONRPCError(.invalidParams, "their worker is down", data: ["field": "params.x", "reason": "tooLong"]),
        JSONRPCError(.methodNotFound, "their worker is down", data: ["method": "x"]),
    ])
    func test_anErrorWithoutTheDocumentedData_isKeptAsItsMessage_withItsCode(_ foreign: JSONRPCError) async {
        #expect(PostsError(foreign) == .failed("their worker is down [\(foreign.code)]"))
    }

    @Test func test_anInternalErrorIsItsMessage() async {
        #expect(PostsError(JSONRPCError(.internalError, "disk full")) == .failed("disk full"))
    }
}

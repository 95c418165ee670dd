import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reading requests and replies with our parser (JSONParser): a request's
/// faults are answered in JSON's words, naming the member that is wrong.
extension JSONRPC {
    /// Reads a request, or says what error to answer with (and to which id).
    public static func decodeRequest(_ data: Data) -> Result<IncomingRequest, RequestFailure> {
        data.withUnsafeBytes { decodeRequest(bytes: $0) }
    }

    /// `decodeRequest(_:)` over bytes where they are (a request's frame):
    /// what it builds (the params' tree) owns its values, so nothing of the
    /// bytes is kept.
    public static func decodeRequest(bytes data: UnsafeRawBufferPointer) -> Result<IncomingRequest, RequestFailure> {
        func refuse(_ id: JSONRPCID, _ error: JSONRPCError) -> Result<IncomingRequest, RequestFailure> {
            .failure(RequestFailure(id: id, error: error))
        }
        // The envelope's members as they are read; any other is parsed and dropped.
        var members: (jsonrpc: JSONValue?, id: JSONValue?, method: JSONValue?, params: JSONValue?) = (nil, nil, nil, nil)
        let parsed = Result { () throws(JSONParser.Failure) in
            try JSONParser.parse(bytes: data) { key, value in
                switch key {
                case "jsonrpc": members.jsonrpc = value
                case "id": members.id = value
                case "method": members.method = value
                case "params": members.params = value
                default: break
                }
            }
        }
        let issue: JSONParser.Issue?
        switch parsed {
        case .success((let document?, _)):
            return refuse(.null, .invalidRequest("the request must be an object (got \(document.shortDescription))"))
        case .success((nil, let found)): issue = found
        case .failure(.tooDeep):
            return refuse(.null, JSONRPCError(.parseError, "the request has arrays and objects nested more than \(JSONParser.maxDepth) deep"))
        case .failure(let failure): return refuse(.null, .parseError(JSONParseError(failure, bytes: data.count).description))
        }
        guard let readID = JSONRPCID(members.id ?? .null) else {
            return refuse(.null, .invalidRequest("id must be a string, an integer or null (got \(shown(members.id)))"))
        }
        // An id that is not text cannot be answered under: null instead.
        let id = issue?.path == "id" ? .null : readID
        guard members.jsonrpc == .string(version) else {
            return refuse(id, .invalidRequest("jsonrpc must be '\(version)' (got \(shown(members.jsonrpc)))"))
        }
        guard case .string(let method)? = members.method, !method.isEmpty else {
            return refuse(id, .invalidRequest("method must be a non-empty string (got \(shown(members.method)))"))
        }
        switch members.params {
        case nil, .null?, .object?, .array?: break
        case let other?: return refuse(id, .invalidRequest("params must be an object or an array (got \(other.shortDescription))"))
        }
        if let issue {
            // Inside params it is the caller's field, answered -32602 like
            // any other; elsewhere the envelope itself is wrong.
            if WireField.isInParams(issue.path) { return refuse(id, JSONRPCError(PostsError.invalid(issue.path, issue.reason))) }
            let place = issue.path.isEmpty ? "the request" : issue.path
            return refuse(id, .invalidRequest(InvalidField(place, issue.reason).description))
        }
        return .success(IncomingRequest(id: id, method: method, params: members.params))
    }

    /// Reads a response: the result, or the error it carries. A reply that
    /// is not what was asked for is an internal error saying where it differs.
    public static func decodeResponse<Result: Decodable>(_ data: Data, as type: Result.Type) throws(JSONRPCError) -> Result {
        let result = data.withUnsafeBytes { bytes in Swift.Result { () throws(JSONRPCError) in try decodeResponse(bytes: bytes, as: type) } }
        return try result.get()
    }

    /// `decodeResponse(_:as:)` over bytes where they are (a reply's frame).
    public static func decodeResponse<Result: Decodable>(bytes: UnsafeRawBufferPointer, as type: Result.Type) throws(JSONRPCError) -> Result {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: bytes)
        } catch {
            throw JSONRPCError(.internalError, "the reply (\(bytes.count) bytes) cannot be read: \(error)")
        }
        guard case .object(let members) = document else {
            throw JSONRPCError(.internalError, "the reply is not a JSON-RPC 2.0 response (it is \(document.shortDescription))")
        }
        if let error = members["error"], error != .null {
            throw JSONRPCError(reading: error)
                ?? JSONRPCError(.internalError, "the reply's error is not a JSON-RPC 2.0 error object (it needs an integer code)")
        }
        guard let result = members["result"] else {
            throw JSONRPCError(.internalError, "the reply has neither result nor error")
        }
        do {
            return try JSONValueDecoder.decode(type, from: result, root: "result")
        } catch {
            throw JSONRPCError(.internalError, "the reply is not what was asked for: \(error)")
        }
    }

    /// The id of a request or response, for matching replies to requests;
    /// nil when there is none, or the text is not a JSON object.
    public static func id(in data: Data) -> JSONRPCID? {
        JSONParser.member("id", in: data).flatMap(JSONRPCID.init)
    }

    /// `id(in:)` over bytes where they are (a reply's frame), copied nowhere.
    public static func id(in bytes: UnsafeRawBufferPointer) -> JSONRPCID? {
        JSONParser.member("id", in: bytes).flatMap(JSONRPCID.init)
    }

    /// The outage a reply reports (-32003 and its `data.reason`), read from
    /// its `error` member alone: a reply with a result is skipped over, not
    /// built. Nil for any other reply.
    public static func outage(in data: Data) -> Outage? {
        data.withUnsafeBytes { outage(in: $0) }
    }

    /// `outage(in:)` over bytes where they are (a reply's frame).
    public static func outage(in bytes: UnsafeRawBufferPointer) -> Outage? {
        guard let error = JSONParser.member("error", in: bytes), error["code"]?.intValue == Int(JSONRPCErrorCode.serviceUnavailable.rawValue),
            let details = error["data"]
        else { return nil }
        return OutageData.decode(details)
    }

    /// A member as an envelope error shows it: `'1.0'`, `5`, `nothing`.
    private static func shown(_ value: JSONValue?) -> String {
        switch value {
        case nil: "nothing"
        case .string(let text)?: text.isEmpty ? "an empty string" : "'\(text.count > 40 ? text.prefix(40) + "…" : text)'"
        case let value?: value.shortDescription
        }
    }
}

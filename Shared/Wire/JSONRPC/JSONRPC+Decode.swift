import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reading requests and replies with our parser and reader (JSONParser,
/// JSONReader): a request's faults are answered in JSON's words, naming the
/// member that is wrong.
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
        // The envelope's members as they are read; params are checked and
        // kept as text, any other member checked and dropped.
        var members: (jsonrpc: JSONValue?, id: JSONValue?, method: JSONValue?, params: JSONValue?) = (nil, nil, nil, nil)
        var params: Range<Int>?
        var notes: JSONStructure.Notes?
        var meta: Range<Int>?
        let parsed = Result { () throws(JSONParser.Failure) in
            try JSONParser.with(bytes: data) { parser throws(JSONParser.Failure) -> (JSONValue?, JSONParser.Issue?) in
                parser.skipSpace()
                guard parser.peek == UInt8(ascii: "{") else {
                    let value = try parser.value(depth: 0)
                    try parser.expectEnd()
                    return (value, parser.issue)
                }
                parser.path.reserveCapacity(8)
                try parser.members(depth: 1) { parser, key throws(JSONParser.Failure) in
                    parser.path.append(.key(key))
                    defer { parser.path.removeLast() }
                    switch key {
                    case "jsonrpc": members.jsonrpc = try parser.value(depth: 1)
                    case "id": members.id = try parser.value(depth: 1)
                    case "method": members.method = try parser.value(depth: 1)
                    case "params":
                        parser.skipSpace()
                        let start = parser.index
                        meta = nil
                        // Where each value starts is noted on the way (in a
                        // large request), so the handler's read skips nothing.
                        if data.count >= JSONStructure.worthNoting { parser.notes = JSONStructure.Notes() }
                        defer { (notes, parser.notes) = (parser.notes, nil) }
                        switch parser.peek {
                        case UInt8(ascii: "{"):
                            // Its `_meta` is noted in any case, for the router to read alone.
                            var found: [JSONReader.Member] = []
                            try parser.members(depth: 2) { parser, key throws(JSONParser.Failure) in
                                parser.path.append(.key(key))
                                defer { parser.path.removeLast() }
                                parser.skipSpace()
                                let start = parser.index
                                if parser.notes != nil { found.append(JSONReader.Member(name: key, offset: start)) }
                                try parser.checkValue(depth: 2)
                                if key == RequestMeta.member { meta = start..<parser.index }
                                return true
                            }
                            parser.notes?.objects[start] = found
                            members.params = nil
                        case UInt8(ascii: "["), UInt8(ascii: "n"):
                            try parser.checkValue(depth: 1)
                            members.params = nil
                        default:
                            // Refused below, saying what it is.
                            members.params = try parser.value(depth: 1)
                        }
                        params = start..<parser.index
                    default: try parser.checkValue(depth: 1)
                    }
                    return true
                }
                try parser.expectEnd()
                return (nil, parser.issue)
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
        if let other = members.params {
            return refuse(id, .invalidRequest("params must be an object or an array (got \(other.shortDescription))"))
        }
        if let issue {
            // Inside params it is the caller's field, answered -32602 like
            // any other; elsewhere the envelope itself is wrong.
            if WireField.isInParams(issue.path) { return refuse(id, JSONRPCError(PostsError.invalid(issue.path, issue.reason))) }
            let place = issue.path.isEmpty ? "the request" : issue.path
            return refuse(id, .invalidRequest(InvalidField(place, issue.reason).description))
        }
        guard let params else { return .success(IncomingRequest(id: id, method: method, params: nil, meta: nil)) }
        let storage = Array(data)
        let structure = notes.map(JSONStructure.init)
        return .success(
            IncomingRequest(
                id: id, method: method, params: JSONBytes(checked: storage, range: params, structure: structure),
                meta: meta.map { JSONBytes(checked: storage, range: $0, structure: structure) }))
    }

    /// Reads a response: the result, or the error it carries. A reply that
    /// is not what was asked for is an internal error saying where it differs.
    public static func decodeResponse<Result: Decodable>(_ data: Data, as type: Result.Type) throws(JSONRPCError) -> Result {
        let result = data.withUnsafeBytes { bytes in Swift.Result { () throws(JSONRPCError) in try decodeResponse(bytes: bytes, as: type) } }
        return try result.get()
    }

    /// `decodeResponse(_:as:)` over bytes where they are (a reply's frame):
    /// the result is read from them in place, as `type`.
    public static func decodeResponse<Result: Decodable>(bytes: UnsafeRawBufferPointer, as type: Result.Type) throws(JSONRPCError) -> Result {
        var error: JSONValue?
        var result: Int?
        var notes: JSONStructure.Notes?
        /// The result, when it read itself as the reply was checked (`JSONDirectRead`).
        var direct: Result?
        let walked = Swift.Result { () throws(JSONParser.Failure) -> JSONValue? in
            try JSONParser.with(bytes: bytes) { parser throws(JSONParser.Failure) -> JSONValue? in
                parser.skipSpace()
                guard parser.peek == UInt8(ascii: "{") else {
                    let document = try parser.value(depth: 0)
                    try parser.expectEnd()
                    return document
                }
                try parser.members(depth: 1) { parser, key throws(JSONParser.Failure) in
                    switch key {
                    case "error": error = try parser.value(depth: 1)
                    case "result":
                        parser.skipSpace()
                        let start = parser.index
                        result = start
                        direct = nil
                        if let reads = Result.self as? any JSONDirectRead.Type {
                            if let read = (try? reads.read(from: &parser, depth: 1)) as? Result, parser.issue == nil {
                                direct = read
                                return true
                            }
                            // Not of its shape, or not JSON: checked and read again as
                            // any result is, and refused in the same words.
                            (parser.index, parser.issue) = (start, nil)
                        }
                        // A large result (a page of posts) is checked once with
                        // its structure noted, so reading it looks its members
                        // up instead of skipping every value again at each level.
                        if bytes.count >= JSONStructure.worthNoting {
                            parser.notes = JSONStructure.Notes()
                            try parser.checkValue(depth: 1)
                            (notes, parser.notes) = (parser.notes, nil)
                        } else {
                            try parser.skipValue(depth: 1)
                        }
                    default: try parser.skipValue(depth: 1)
                    }
                    return true
                }
                try parser.expectEnd()
                return nil
            }
        }
        switch walked {
        case .failure(let failure):
            throw JSONRPCError(.internalError, "the reply (\(bytes.count) bytes) cannot be read: \(JSONParseError(failure, bytes: bytes.count))")
        case .success(let document?):
            throw JSONRPCError(.internalError, "the reply is not a JSON-RPC 2.0 response (it is \(document.shortDescription))")
        case .success(nil): break
        }
        if let error, error != .null {
            throw JSONRPCError(reading: error)
                ?? JSONRPCError(.internalError, "the reply's error is not a JSON-RPC 2.0 error object (it needs an integer code)")
        }
        guard let result else {
            throw JSONRPCError(.internalError, "the reply has neither result nor error")
        }
        if let direct { return direct }
        do {
            return try JSONReader.decode(
                type, from: bytes.bindMemory(to: UInt8.self), at: result, root: "result", structure: notes.map(JSONStructure.init))
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

    /// The id of a request as the service reads it (`decodeRequest`): its
    /// last `id` member, should it give two, every member read for
    /// structure; nil when there is none, or the text is not a JSON
    /// object. What a gateway answers a request under (`id(in:)`, which
    /// stops at the first, is for replies, whose id we write once and first).
    public static func requestID(in bytes: UnsafeRawBufferPointer) -> JSONRPCID? {
        try? JSONParser.with(bytes: bytes) { parser throws(JSONParser.Failure) -> JSONRPCID? in
            var found: JSONValue?
            try parser.eachMember(named: "id", depth: 1) { parser throws(JSONParser.Failure) in found = try parser.value(depth: 1) }
            return found.flatMap(JSONRPCID.init)
        }
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

import Domain
import Foundation

/// The JSON-RPC 2.0 envelope every MDP body carries (docs/PROTOCOL.md).
public enum JSONRPC {
    public static let version = "2.0"

    /// A request that cannot be served, and the id to answer it under.
    public struct RequestFailure: Error, Sendable {
        public let id: JSONRPCID
        public let error: JSONRPCError
    }

    /// A request as a server receives it; `params` are decoded on demand.
    public struct IncomingRequest: Sendable {
        public let id: JSONRPCID
        public let method: String
        /// Absent, an object or an array.
        public let params: JSONValue?

        /// Decodes `params`; a mismatch is answered as invalid params naming the field.
        public func params<Params: Decodable>(_ type: Params.Type) throws(JSONRPCError) -> Params {
            do { return try JSONValueDecoder.decode(type, from: params ?? .null) } catch { throw JSONRPCError(error) }
        }

        /// Decodes `params`, or gives `fallback` when there are none (absent or null).
        public func params<Params: Decodable>(_ type: Params.Type, or fallback: Params) throws(JSONRPCError) -> Params {
            guard let params, params != .null else { return fallback }
            return try self.params(type)
        }
    }

    /// Reads a request, or says what error to answer with (and to which id).
    public static func decodeRequest(_ data: Data) -> Result<IncomingRequest, RequestFailure> {
        let document: JSONValue
        switch Result(catching: { () throws(JSONParser.Failure) in try JSONParser.parse(data) }) {
        case .success(let value):
            document = value
        case .failure(.syntax(let offset, let detail)):
            return .failure(RequestFailure(id: .null, error: .parseError("\(detail) at byte \(offset) of \(data.count)")))
        case .failure(.notText(let path, let detail)):
            let error = path == "params" || path.hasPrefix("params.") || path.hasPrefix("params[")
                ? JSONRPCError(PostsError.invalid(String(path.dropFirst("params".count).drop { $0 == "." }), .notText(detail)))
                : .invalidRequest("\(path.isEmpty ? "the request" : path) must be Unicode text (\(detail))")
            return .failure(RequestFailure(id: .null, error: error))
        }
        guard case .object(let members) = document else {
            return .failure(RequestFailure(id: .null, error: .invalidRequest("expected a JSON object, got \(document.shortDescription)")))
        }
        guard let id = JSONRPCID(members["id"] ?? .null) else {
            let got = members["id"]?.shortDescription ?? "nothing"
            return .failure(RequestFailure(id: .null, error: .invalidRequest("id must be a string, an integer or null (got \(got))")))
        }
        guard members["jsonrpc"] == .string(version) else {
            return .failure(RequestFailure(id: id, error: .invalidRequest("\"jsonrpc\" must be \"2.0\"")))
        }
        guard case .string(let method)? = members["method"], !method.isEmpty else {
            return .failure(RequestFailure(id: id, error: .invalidRequest("\"method\" must be a non-empty string")))
        }
        switch members["params"] {
        case nil, .null?, .object?, .array?: break
        case let other?: return .failure(RequestFailure(id: id, error: .invalidRequest("params must be an object or an array (got \(other.shortDescription))")))
        }
        return .success(IncomingRequest(id: id, method: method, params: members["params"]))
    }

    public static func encodeRequest<Params: Encodable>(id: JSONRPCID, method: String, params: Params?) throws -> Data {
        try encoder.encode(RequestEnvelope(jsonrpc: version, id: id, method: method, params: params))
    }

    public static func encodeResult<Result: Encodable>(id: JSONRPCID, _ result: Result) throws -> Data {
        try encoder.encode(ResultEnvelope(jsonrpc: version, id: id, result: result))
    }

    /// Never fails: an error reply must always be possible.
    public static func encodeError(id: JSONRPCID, _ error: JSONRPCError) -> Data {
        (try? encoder.encode(ErrorEnvelope(jsonrpc: version, id: id, error: error)))
            ?? Data(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal error"}}"#.utf8)
    }

    /// Reads a response: the result, or the error it carries.
    public static func decodeResponse<Result: Decodable>(_ data: Data, as type: Result.Type) throws(JSONRPCError) -> Result {
        let envelope: ResponseEnvelope<Result>
        do {
            envelope = try JSONDecoder().decode(ResponseEnvelope<Result>.self, from: data)
        } catch {
            throw JSONRPCError(.internalError, "the reply (\(data.count) bytes) is not a JSON-RPC 2.0 response of the expected shape")
        }
        if let error = envelope.error { throw error }
        guard let result = envelope.result else {
            throw JSONRPCError(.internalError, "reply has neither result nor error")
        }
        return result
    }

    /// The id of a request or response, for matching replies to requests.
    public static func id(in data: Data) -> JSONRPCID? {
        try? JSONDecoder().decode(IDEnvelope.self, from: data).id
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()
}

struct IDEnvelope: Decodable { let id: JSONRPCID? }

struct RequestEnvelope<Params: Encodable>: Encodable {
    let jsonrpc: String
    let id: JSONRPCID
    let method: String
    let params: Params?
}
struct ResultEnvelope<Result: Encodable>: Encodable {
    let jsonrpc: String
    let id: JSONRPCID
    let result: Result
}
struct ErrorEnvelope: Encodable {
    let jsonrpc: String
    let id: JSONRPCID
    let error: JSONRPCError
}
struct ResponseEnvelope<Result: Decodable>: Decodable {
    let id: JSONRPCID?
    let result: Result?
    let error: JSONRPCError?
}

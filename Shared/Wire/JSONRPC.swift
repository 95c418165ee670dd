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
        /// The whole request, kept to decode `params` into a typed value.
        public let raw: Data

        /// Decodes `params`; a mismatch is answered as invalid params.
        public func params<Params: Decodable>(_ type: Params.Type) throws(JSONRPCError) -> Params {
            try decode(ParamsEnvelope<Params>.self).params
        }

        /// Decodes `params`, or gives `fallback` when there are none (absent or null).
        public func params<Params: Decodable>(_ type: Params.Type, or fallback: Params) throws(JSONRPCError) -> Params {
            try decode(OptionalParamsEnvelope<Params>.self).params ?? fallback
        }

        private func decode<Envelope: Decodable>(_ type: Envelope.Type) throws(JSONRPCError) -> Envelope {
            do {
                return try JSONDecoder().decode(Envelope.self, from: raw)
            } catch let error as DecodingError {
                throw JSONRPCError.invalidParams(field: error.fieldPath, error.rule)
            } catch {
                throw JSONRPCError(.invalidParams, "params: \(error)")
            }
        }
    }

    /// Reads a request, or says what error to answer with (and to which id).
    /// One decoding pass over the envelope; `params` is decoded later, by type.
    public static func decodeRequest(_ data: Data) -> Result<IncomingRequest, RequestFailure> {
        let header: RequestHeader
        do {
            header = try JSONDecoder().decode(RequestHeader.self, from: data)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            return .failure(RequestFailure(id: .null, error: .parseError("\(data.count) bytes that do not parse")))
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            return .failure(RequestFailure(id: .null, error: .invalidRequest("expected a JSON object")))
        } catch let error as DecodingError {
            let id = (try? JSONDecoder().decode(IDEnvelope.self, from: data).id) ?? .null
            return .failure(RequestFailure(id: id, error: .invalidRequest("\(error.fieldPath) \(error.rule)")))
        } catch {
            return .failure(RequestFailure(id: .null, error: .parseError("\(error)")))
        }
        let id = header.id ?? .null
        guard header.jsonrpc == version else {
            return .failure(RequestFailure(id: id, error: .invalidRequest("\"jsonrpc\" must be \"2.0\"")))
        }
        guard let method = header.method, !method.isEmpty else {
            return .failure(RequestFailure(id: id, error: .invalidRequest("\"method\" must be a non-empty string")))
        }
        return .success(IncomingRequest(id: id, method: method, raw: data))
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
            throw JSONRPCError(.internalError, "reply is not a JSON-RPC 2.0 response: \(error)")
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

/// A request's envelope, without decoding its params.
struct RequestHeader: Decodable {
    let jsonrpc: String?
    let id: JSONRPCID?
    let method: String?
    let params: ParamsShape?
}

/// Checks that `params` is an object or an array without reading what is in it.
struct ParamsShape: Decodable {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if (try? decoder.container(keyedBy: AnyKey.self)) != nil { return }
        if (try? decoder.unkeyedContainer()) != nil { return }
        throw DecodingError.typeMismatch(ParamsShape.self, .init(codingPath: decoder.codingPath, debugDescription: "must be an object or an array"))
    }
}
struct ParamsEnvelope<Params: Decodable>: Decodable { let params: Params }
struct OptionalParamsEnvelope<Params: Decodable>: Decodable { let params: Params? }
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

extension DecodingError {
    /// The dotted path of the field a decoding error is about ("params.post.title").
    var fieldPath: String {
        let path: [any CodingKey]
        switch self {
        case .keyNotFound(let key, let context): path = context.codingPath + [key]
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context): path = context.codingPath
        @unknown default: path = []
        }
        // "params.posts[0].uid": indexes attach to the name before them.
        let name = path.reduce(into: "") { name, key in
            if let index = key.intValue { name += "[\(index)]" } else { name += name.isEmpty ? key.stringValue : ".\(key.stringValue)" }
        }
        return name.isEmpty ? "params" : name
    }

    var rule: String {
        switch self {
        case .keyNotFound: "is required"
        case .typeMismatch(let type, _): "must be of type \(type)"
        case .valueNotFound(let type, _): "must be a \(type), not null"
        case .dataCorrupted(let context): "is invalid: \(context.debugDescription)"
        @unknown default: "is invalid"
        }
    }
}

import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON-RPC 2.0 envelope every MDP body carries (docs/PROTOCOL.md).
/// Reading is in JSONRPC+Decode.swift; writing is `JSONWriter`'s, which
/// writes exactly what the DTOs hold.
public enum JSONRPC {
    public static let version = "2.0"

    /// A request that cannot be served, and the id to answer it under.
    public struct RequestFailure: Error, Sendable {
        public let id: JSONRPCID
        public let error: JSONRPCError
    }

    /// A request as a server receives it; `params` are decoded on demand,
    /// from their text as it arrived (checked with the rest of the request).
    public struct IncomingRequest: Sendable {
        public let id: JSONRPCID
        public let method: String
        /// Absent, null, an object or an array.
        public let params: JSONBytes?

        /// `params._meta`'s text, found while the request was checked.
        private let metaText: JSONBytes?

        init(id: JSONRPCID, method: String, params: JSONBytes?, meta: JSONBytes?) {
            (self.id, self.method, self.params, self.metaText) = (id, method, params, meta)
        }

        /// Decodes `params`. A mismatch is answered as invalid params (-32602)
        /// naming the field where it is (`params.post.title`), in Domain's
        /// words, with the reason's values in `data`.
        public func params<Params: Decodable>(_ type: Params.Type) throws(JSONRPCError) -> Params {
            do {
                return try (params ?? Self.null).decode(type, root: "params")
            } catch {
                throw JSONRPCError(error)
            }
        }

        /// Decodes `params`, or gives `fallback` when there are none (absent or null).
        public func params<Params: Decodable>(_ type: Params.Type, or fallback: Params) throws(JSONRPCError) -> Params {
            guard let params, !params.isNull else { return fallback }
            return try self.params(type)
        }

        /// `params._meta` (`RequestMeta`), empty when there is none; a
        /// member of the wrong type is invalid params naming it.
        public func meta() throws(JSONRPCError) -> RequestMeta {
            guard let metaText, !metaText.isNull else { return RequestMeta() }
            do {
                return try metaText.decode(RequestMeta.self, root: "params.\(RequestMeta.member)")
            } catch {
                throw JSONRPCError(error)
            }
        }

        private static let null = JSONBytes(checked: Array("null".utf8))
    }

    public static func encodeRequest<Params: Encodable>(id: JSONRPCID, method: String, params: Params?, meta: RequestMeta? = nil) throws -> Data {
        try JSONWriter.encodeRequest(id: id, method: method, params: params, meta: meta)
    }

    public static func encodeResult<Result: Encodable>(id: JSONRPCID, _ result: Result) throws -> Data {
        try JSONWriter.encodeEnvelope(id: id, member: .result, result)
    }

    /// Never fails: an error reply must always be possible.
    public static func encodeError(id: JSONRPCID, _ error: JSONRPCError) -> Data {
        (try? JSONWriter.encodeEnvelope(id: id, member: .error, error))
            ?? Data(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal error: the error reply could not be written"}}"#.utf8)
    }
}

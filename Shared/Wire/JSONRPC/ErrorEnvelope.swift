import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What an error reply is, as `JSONWriter.encodeEnvelope` writes it.
struct ErrorEnvelope: Encodable {
    let jsonrpc: String
    let id: JSONRPCID
    let error: JSONRPCError
}

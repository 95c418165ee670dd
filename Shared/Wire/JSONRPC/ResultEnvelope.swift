import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a reply is, as `JSONWriter.encodeEnvelope` writes it (the tests
/// hold the two to the same bytes).
struct ResultEnvelope<Result: Encodable>: Encodable {
    let jsonrpc: String
    let id: JSONRPCID
    let result: Result
}

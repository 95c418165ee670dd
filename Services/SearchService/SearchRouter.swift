import Domain
import Foundation
import LocalPlatform
import Logging
import Wire
import ZeroMQ
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Turns one JSON-RPC request for service `search` into an index call.
struct SearchRouter: Sendable {
    let sync: IndexSync
    /// The gateway's frame limit (POSTS_MAX_FRAME_SIZE).
    let maxReplyBytes: Int
    let logger: Logger

    func handle(_ body: [Frame]) async -> [Frame] {
        let data = body.map { $0.withUnsafeBytes { Data($0) } }
        let reply = await JSONRPC.respond(to: data, maxReplyBytes: maxReplyBytes, onFault: { method, error in
            logger.error("request failed", metadata: ["method": "\(method)", "error": "\(error)"])
        }, answer: answer)
        return [Frame(reply)]
    }

    private func answer(_ request: JSONRPC.IncomingRequest) async throws -> Data {
        switch request.method {
        case SearchMethod.query:
            let params = try request.params(SearchParams.self)
            let results = try await sync.index.search(params.q, limit: params.limit ?? PostRules.defaultPageSize, offset: params.offset ?? 0)
            return try JSONRPC.encodeResult(id: request.id, SearchResultDTO(domain: results, worker: getpid()))
        case SearchMethod.stats:
            let applied = try await sync.index.appliedSequence()
            let head = max(applied, sync.headSeen.load(ordering: .relaxed))
            let stats = SearchStatsResult(documents: try await sync.index.documentCount(), applied: applied, head: head, worker: getpid(),
                                          indexBytes: try await sync.index.sizeInBytes())
            return try JSONRPC.encodeResult(id: request.id, stats)
        case SearchMethod.health:
            return try JSONRPC.encodeResult(id: request.id, HealthResult(status: "ok", service: SearchMethod.service, pid: getpid()))
        default:
            throw JSONRPCError.methodNotFound(request.method, service: SearchMethod.service)
        }
    }
}

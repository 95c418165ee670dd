import Domain
import Foundation
import LocalPlatform
import Logging
import Wire
import ZeroMQ
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Turns one JSON-RPC request for service `search` into a use-case call.
struct SearchRouter: Sendable {
    let search: any SearchUseCase
    let index: FTS5SearchIndex
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
            let results = try await search.search(params.q, limit: params.limit, offset: params.offset)
            return try JSONRPC.encodeResult(id: request.id, SearchResultDTO(domain: results, pid: getpid()))
        case SearchMethod.stats:
            let applied = try await index.position().applied
            let stats = SystemStatus.SearchIndex(pid: getpid(), documents: try await index.documentCount(), applied: applied,
                                                 head: max(applied, sync.headSeen.load(ordering: .relaxed)))
            return try JSONRPC.encodeResult(id: request.id, SearchStatsResult(index: stats, indexBytes: try await index.sizeInBytes()))
        case SearchMethod.health:
            return try JSONRPC.encodeResult(id: request.id, HealthResult(status: "ok", service: SearchMethod.service, pid: getpid()))
        default:
            throw JSONRPCError.methodNotFound(request.method, service: SearchMethod.service)
        }
    }
}

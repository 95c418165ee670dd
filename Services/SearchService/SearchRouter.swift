import Domain
import Foundation
import LocalPlatform
import Logging
import RPCServer
import Wire
import ZeroMQ
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The `search` service's methods (SearchMethod), each a use-case call.
struct SearchRouter: Sendable {
    let router: JSONRPCRouter

    init(search: any SearchUseCase, index: SQLiteSearchIndex, sync: IndexSync, maxReplyBytes: Int, logger: Logger) {
        var router = JSONRPCRouter(service: SearchMethod.service, maxReplyBytes: maxReplyBytes) { method, error in
            logger.error("request failed", metadata: ["method": "\(method)", "error": "\(error)"])
        }
        router.on(SearchMethod.query) { params, _ in
            SearchResultDTO(domain: try await search.search(params.q, limit: params.limit, offset: params.offset), pid: getpid())
        }
        router.on(SearchMethod.stats) { _, _ in
            let applied = try await index.position().applied
            let stats = SystemStatus.SearchIndex(
                pid: getpid(), documents: try await index.documentCount(), applied: applied,
                head: max(applied, sync.headSeen.load(ordering: .relaxed)))
            return SearchStatsResult(
                index: SearchIndexDTO(domain: stats), indexBytes: try await index.sizeInBytes(), rankingLoaded: index.rankingLoaded)
        }
        router.on(SearchMethod.health) { _, _ in HealthResult(status: "ok", service: SearchMethod.service, pid: getpid()) }
        self.router = router
    }

    func handle(_ body: Data) async -> Data { await router.handle(body).reply }

    /// A request as a worker receives it: read where its frame's bytes are.
    func handle(frame: Frame) async -> Data {
        await router.handle(read: frame.withUnsafeBytes { JSONRPC.decodeRequest(bytes: $0) }).reply
    }
}

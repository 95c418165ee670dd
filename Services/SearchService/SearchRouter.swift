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
    let logger: Logger

    func handle(_ body: [Frame]) async -> [Frame] {
        guard body.count == 1, let frame = body.first else {
            return [Frame(JSONRPC.encodeError(id: .null, .invalidRequest("expected one body frame, got \(body.count)")))]
        }
        let request: JSONRPC.IncomingRequest
        switch JSONRPC.decodeRequest(frame.withUnsafeBytes { Data($0) }) {
        case .failure(let failure): return [Frame(JSONRPC.encodeError(id: failure.id, failure.error))]
        case .success(let decoded): request = decoded
        }
        do {
            return [Frame(try await answer(request))]
        } catch let error as JSONRPCError {
            return [Frame(JSONRPC.encodeError(id: request.id, error))]
        } catch let error as PostsError {
            if case .failed = error { logger.error("request failed", metadata: ["method": "\(request.method)", "error": "\(error)"]) }
            return [Frame(JSONRPC.encodeError(id: request.id, JSONRPCError(error)))]
        } catch {
            return [Frame(JSONRPC.encodeError(id: request.id, JSONRPCError(.internalError, "\(error)")))]
        }
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

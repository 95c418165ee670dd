import Domain
import Wire
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One request as its handler sees it beside its params: the id to answer
/// under, its `_meta`, and its deadline. A reply is made here, typed by the
/// method's result, so a handler cannot answer with another method's type.
public struct RPCCall<Result: Codable & Sendable>: Sendable {
    public let id: JSONRPCID
    public let meta: RequestMeta
    /// When the caller stops waiting (from `_meta.timeoutMs`), if it said.
    public let deadline: ContinuousClock.Instant?
    /// The largest reply the gateway takes (its POSTS_MAX_FRAME_SIZE).
    public let maxReplyBytes: Int

    @usableFromInline init(id: JSONRPCID, meta: RequestMeta, deadline: ContinuousClock.Instant?, maxReplyBytes: Int) {
        (self.id, self.meta, self.deadline, self.maxReplyBytes) = (id, meta, deadline, maxReplyBytes)
    }

    public func reply(_ result: Result) throws -> RPCReply<Result> {
        RPCReply(data: try JSONRPC.encodeResult(id: id, result))
    }

    /// A page that fits the frame limit. Pages are bounded in raw bytes,
    /// and JSON escaping can make text up to six times longer: a page that
    /// does not fit is asked for again with as many entries as its bytes
    /// say would fit (`entriesThatFit`; its cursor or sequence follows what
    /// it holds, so nothing is skipped). Entries of like sizes fit at the
    /// second read; each further read asks for fewer.
    public func fitted(limit: Int, _ page: (Int) async throws -> (Result, count: Int)) async throws -> RPCReply<Result> {
        var limit = limit
        while true {
            let (result, count) = try await page(limit)
            let reply = try reply(result)
            if reply.data.count <= maxReplyBytes || count <= 1 { return reply }
            limit = Self.entriesThatFit(count: count, bytes: reply.data.count, limit: maxReplyBytes)
        }
    }

    /// Of `count` entries that took `bytes`, how many to ask for to fit
    /// `limit`: their share of it, less a tenth for entries of unlike sizes,
    /// and at most half as many as before (so entries of unlike sizes take
    /// no more reads than halving alone did), at least one. Halving alone
    /// read and encoded a page of 40 posts of 18 KB five times to fit 2 in
    /// 64 KiB; this reads it twice and fits 3.
    static func entriesThatFit(count: Int, bytes: Int, limit: Int) -> Int {
        let share = Double(count) * Double(limit) / Double(max(bytes, 1)) * 0.9
        return max(1, min(count / 2, Int(share)))
    }
}

import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension JSONRPC {
    /// Serves one request: reads the body (exactly one frame), runs `answer`,
    /// and turns every failure into the JSON-RPC error docs/PROTOCOL.md names
    /// for it. `onFault` hears of failures that are the service's own fault
    /// (internal errors), so they can be logged; bad requests are not faults.
    /// A reply over `maxReplyBytes` (the gateway's frame limit) becomes
    /// error -32005 with `bytes` and `limit`: sent, it would cost the
    /// connection, not just the request.
    public static func respond(
        to body: [Data],
        maxReplyBytes: Int = .max,
        onFault: (_ method: String, _ error: any Error) -> Void = { _, _ in },
        answer: (IncomingRequest) async throws -> Data
    ) async -> Data {
        guard body.count == 1 else {
            return encodeError(id: .null, .invalidRequest("expected one body frame, got \(body.count)"))
        }
        let request: IncomingRequest
        switch decodeRequest(body[0]) {
        case .failure(let failure): return encodeError(id: failure.id, failure.error)
        case .success(let decoded): request = decoded
        }
        do {
            let reply = try await answer(request)
            guard reply.count <= maxReplyBytes else {
                throw JSONRPCError(PostsError.tooLarge(bytes: reply.count, limit: maxReplyBytes),
                                   message: "the reply is \(reply.count) bytes, over the frame limit of \(maxReplyBytes) (POSTS_MAX_FRAME_SIZE)")
            }
            return reply
        } catch let error as JSONRPCError {
            return encodeError(id: request.id, error)
        } catch let error as PostsError {
            if case .failed = error { onFault(request.method, error) }
            return encodeError(id: request.id, JSONRPCError(error))
        } catch {
            // Any other error is a fault whose text is Swift's (type names,
            // internals): it goes to the log, and the caller gets words.
            onFault(request.method, error)
            return encodeError(id: request.id, JSONRPCError(.internalError, "'\(request.method)' failed inside the service; its log says why"))
        }
    }
}

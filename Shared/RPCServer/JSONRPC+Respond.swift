import Domain
import Wire
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension JSONRPC {
    /// Serves one request body: reads it, runs `answer`, and turns every
    /// failure into the JSON-RPC error docs/PROTOCOL.md names for it (see
    /// `answering`). A service serves through `JSONRPCRouter`, which does this.
    public static func respond(
        to body: Data,
        maxReplyBytes: Int = .max,
        onFault: (_ method: String, _ error: any Error) -> Void = { _, _ in },
        answer: (IncomingRequest) async throws -> Data
    ) async -> Data {
        switch decodeRequest(body) {
        case .failure(let failure): encodeError(id: failure.id, failure.error)
        case .success(let request): await answering(request, maxReplyBytes: maxReplyBytes, onFault: onFault, answer).reply
        }
    }

    /// Runs `answer` for a request that was read, and says how it ended.
    /// `onFault` hears of failures that are the service's own fault
    /// (internal errors), so they can be logged; bad requests are not faults.
    /// A reply over `maxReplyBytes` (the gateway's frame limit) becomes
    /// error -32005 with `bytes` and `limit`: sent, it would cost the
    /// connection, not just the request.
    static nonisolated(nonsending) func answering(
        _ request: IncomingRequest,
        maxReplyBytes: Int,
        onFault: (_ method: String, _ error: any Error) -> Void,
        _ answer: nonisolated(nonsending) (IncomingRequest) async throws -> Data
    ) async -> (reply: Data, outcome: RPCOutcome) {
        func failed(_ error: JSONRPCError) -> (Data, RPCOutcome) { (encodeError(id: request.id, error), .error(error.code)) }
        do {
            let reply = try await answer(request)
            guard reply.count <= maxReplyBytes else {
                throw JSONRPCError(
                    PostsError.tooLarge(bytes: reply.count, limit: maxReplyBytes),
                    message: "the reply is \(reply.count) bytes, over the frame limit of \(maxReplyBytes) (POSTS_MAX_FRAME_SIZE)")
            }
            return (reply, .ok)
        } catch let error as JSONRPCError {
            return failed(error)
        } catch let error as PostsError {
            if case .failed = error { onFault(request.method, error) }
            return failed(JSONRPCError(error))
        } catch {
            // Any other error is a fault whose text is Swift's (type names,
            // internals): it goes to the log, and the caller gets words.
            onFault(request.method, error)
            return failed(JSONRPCError(.internalError, "'\(request.method)' failed inside the service; its log says why"))
        }
    }
}

extension JSONRPC {
    /// The answer to a request body of `frames` frames where a JSON-RPC
    /// request is exactly one.
    public static func wrongFrameCount(_ frames: Int) -> Data {
        encodeError(id: .null, .invalidRequest("expected one body frame, got \(frames)"))
    }
}

import Hummingbird
import NIOCore

/// A response whose length is known and small goes out in one write.
///
/// The generated server hands Hummingbird each body as a stream, even one
/// it encoded whole, and Hummingbird writes a streamed body's head, body
/// and end each with its own flush: two or three system calls and two TCP
/// segments for a post, where the client can use nothing until the last
/// one. Collected here, the head and body are written together, as
/// Hummingbird does for a body that is one buffer. Bodies of unknown length
/// (the change stream) and past `bytes` are left streaming. A body written
/// with trailing headers would lose them; no handler here writes any.
struct WholeResponses<Context: RequestContext>: RouterMiddleware {
    /// The largest body collected: a page of posts or a search can be
    /// larger, and a write more is then a small part of sending it.
    static var bytes: Int { 64 << 10 }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        guard let length = response.body.contentLength, length > 0, length <= Self.bytes else { return response }
        let collected = Collected(capacity: length)
        try await response.body.write(Collector(into: collected))
        response.body = ResponseBody(byteBuffer: collected.buffer)
        return response
    }
}

/// Where a `Collector` puts what it is given.
private final class Collected {
    var buffer: ByteBuffer

    init(capacity: Int) { buffer = ByteBufferAllocator().buffer(capacity: capacity) }
}

private struct Collector: ResponseBodyWriter {
    let into: Collected

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        into.buffer.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

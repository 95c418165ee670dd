import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// The edge's bounds on connections, answered in HTTP rather than by a
/// silent close: one of these sits in each connection's pipeline, after
/// the HTTP decoder. A connection past `OpenCount.limit` is answered
/// 503 (with `Retry-After`) on its first request and closed; a request
/// whose header is over `headerBytes` is answered 431, and one that is
/// not HTTP at all 400, and closed. Past
/// `OpenCount.ceiling` the server stops accepting at all, so even
/// refusals hold a bounded number of descriptors.
final class ConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    /// A request's header fields, all together and each one, at most (the
    /// request line counts toward it too).
    static let headerBytes = 16 * 1024
    /// Header fields in a request, at most.
    static let headerFields = 100

    private let count: OpenCount
    private var counted = false
    private var refusing = false
    private var answered = false

    init(count: OpenCount) { self.count = count }

    func handlerAdded(context: ChannelHandlerContext) {
        counted = true
        refusing = !count.open()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if counted { count.close() }
        counted = false
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard refusing else { return context.fireChannelRead(data) }
        if case .head = unwrapInboundIn(data) {
            refuse(
                Problem(
                    status: 503, name: "busy", title: "Too many connections",
                    detail: "this edge has its most connections open (\(count.limit)); try again shortly", retryAfter: 1),
                context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parse = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        if parse == .headerOverflow {
            refuse(
                Problem(
                    status: 431, name: "headers-too-large", title: "Request Header Fields Too Large",
                    detail: "the request's header is over \(Self.headerBytes) bytes or \(Self.headerFields) fields"),
                context: context)
        } else {
            refuse(Problem(status: 400, name: "malformed", title: "Bad Request", detail: "the request is not HTTP/1.1: \(parse)"), context: context)
        }
    }

    /// Answers `problem` and closes the connection; the handlers after this
    /// one see the connection end, not the request.
    private func refuse(_ problem: Problem, context: ChannelHandlerContext) {
        guard !answered else { return }
        answered = true
        var (head, body) = ProblemBody.head(problem)
        head.headerFields[.connection] = "close"
        head.headerFields[.contentLength] = String(body.count)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(bytes: body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }
}

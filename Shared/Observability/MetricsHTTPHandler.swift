import NIOCore
import NIOHTTP1
import Prometheus

/// Answers `GET /metrics` with the registry in Prometheus' text format,
/// anything else with 404 or 405, and closes the connection after each
/// answer or after `MetricsEndpoint.idleTimeout` without one.
final class MetricsHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let registry: PrometheusCollectorRegistry
    private var head: HTTPRequestHead?
    private var answered = false

    init(registry: PrometheusCollectorRegistry) { self.registry = registry }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end:
            guard let head, !answered else { return }
            answered = true
            answer(head, context: context)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent { context.close(promise: nil) }
        context.fireUserInboundEventTriggered(event)
    }

    private func answer(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
        let (status, type, body): (HTTPResponseStatus, String, [UInt8]) =
            if head.method != .GET && head.method != .HEAD {
                (.methodNotAllowed, "text/plain; charset=utf-8", Array("only GET /metrics\n".utf8))
            } else if path != "/metrics" { (.notFound, "text/plain; charset=utf-8", Array("not found: the metrics are at /metrics\n".utf8)) } else {
                (.ok, "text/plain; version=0.0.4; charset=utf-8", registry.emitToBuffer())
            }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: "\(body.count)")
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        if head.method != .HEAD {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}

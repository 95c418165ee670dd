import Majordomo
import Tracing
import Wire
import WireTracing
import ZeroMQ

/// The gateway's span of each request, under the caller's trace context
/// from `params._meta` (or the first of a trace, for a caller that sent
/// none), handed on as the worker's parent: the request's `traceparent` is
/// replaced in place, or inserted.
struct GatewayTracing: BrokerTracing {
    func begin(service: String, body: [Frame]) -> (span: any RequestSpan, body: [Frame])? {
        guard body.count == 1 else { return nil }
        return body[0].withUnsafeBytes { bytes -> (span: any RequestSpan, body: [Frame])? in
            guard let slot = TraceContextSlot.find(in: bytes) else { return nil }
            let caller = RequestMeta(traceparent: slot.traceparent?.text, tracestate: slot.tracestate)
            let span = InstrumentationSystem.tracer.startSpan("gateway \(service)", context: caller.context, ofKind: .server)
            span.attributes["rpc.system"] = "jsonrpc"
            span.attributes["rpc.service"] = service
            var handed = RequestMeta()
            handed.carry(span.context)
            guard let parent = handed.traceparent, let rewritten = slot.writing(traceparent: parent, into: bytes) else {
                return (GatewaySpan(span), body)
            }
            return (GatewaySpan(span), [Frame(rewritten)])
        }
    }
}

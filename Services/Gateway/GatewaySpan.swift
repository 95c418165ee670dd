import Majordomo
import ServiceSupport
import Tracing
import Wire
import ZeroMQ

/// One request's span at the gateway.
final class GatewaySpan: RequestSpan {
    let span: any Span

    init(_ span: any Span) { self.span = span }

    func dispatched(after wait: Duration) {
        span.attributes["gateway.queue_wait_ms"] = wait.milliseconds
        span.addEvent("dispatched")
    }

    func finished(_ outcome: String) {
        span.attributes["gateway.outcome"] = outcome
        if outcome != "answered" { span.setStatus(SpanStatus(code: .error, message: outcome)) }
        span.end()
    }
}

import ZeroMQ

/// The gateway's own span of a request (the layer that knows the message
/// format reads the caller's trace context from the body): begun when the
/// request is queued, marked when a worker is handed it, ended when its
/// client is answered. The broker stays format-agnostic, as 7/MDP is.
public protocol BrokerTracing: Sendable {
    /// A span for a request to `service`, and the body to forward (which
    /// names the new span as the worker's parent); nil to trace nothing.
    func begin(service: String, body: [Frame]) -> (span: any RequestSpan, body: [Frame])?
}

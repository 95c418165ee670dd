/// `params._meta`: what travels with a request beside its params, as the
/// Model Context Protocol carries it on JSON-RPC 2.0 (docs/PROTOCOL.md,
/// "Request metadata"). Every method accepts it; a method's own params
/// never use the name.
public struct RequestMeta: Sendable, Equatable, Codable {
    /// W3C trace context: the caller's span, `00-<trace id>-<span id>-<flags>`.
    public var traceparent: String?
    /// W3C trace context: vendor state, passed on as it came.
    public var tracestate: String?
    /// Milliseconds the caller will wait for the answer, counted from when
    /// the request was sent. The gateway answers -32004 when they run out,
    /// and passes the remainder on when it hands the request to a worker.
    public var timeoutMs: Int?
    /// The write's key, the same on every attempt of it (Domain's
    /// `RequestKey`): a write sent again is applied once.
    public var requestKey: String?

    /// The members' names, as they are written on the wire.
    public enum CodingKeys: String, CodingKey {
        case traceparent, tracestate, timeoutMs, requestKey
    }

    public init(traceparent: String? = nil, tracestate: String? = nil, timeoutMs: Int? = nil, requestKey: String? = nil) {
        (self.traceparent, self.tracestate, self.timeoutMs, self.requestKey) = (traceparent, tracestate, timeoutMs, requestKey)
    }

    public var isEmpty: Bool { traceparent == nil && tracestate == nil && timeoutMs == nil && requestKey == nil }

    /// The name of the member of `params` that holds it.
    public static let member = "_meta"
}

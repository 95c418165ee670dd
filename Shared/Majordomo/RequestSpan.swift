import ZeroMQ

/// One request's span at the broker. Broker thread only.
public protocol RequestSpan: AnyObject {
    /// A worker was handed the request after waiting `wait` in the queue.
    func dispatched(after wait: Duration)
    /// The client was answered: `outcome` is `answered` or the refusal's kind.
    func finished(_ outcome: String)
}

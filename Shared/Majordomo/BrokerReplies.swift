import ZeroMQ

/// What the broker needs from the layer that knows the message format
/// (JSON-RPC, in this product): error replies and introspection documents.
/// The broker itself stays format-agnostic, as 7/MDP is.
public protocol BrokerReplies: Sendable {
    /// The body sent to a client whose request the broker refuses.
    func refusal(_ refusal: BrokerRefusal, request body: [Frame]) -> [Frame]
    /// The body answering a request to an internal `mmi.*` service other than
    /// `mmi.service`, or nil when there is no such service (answered "501").
    func introspection(service: String, request body: [Frame], snapshot: BrokerSnapshot) -> [Frame]?
    /// How long the client will wait for this request, as its body says;
    /// nil when it does not say. The broker answers `.timeout` when it
    /// runs out, and hands a worker only a request with time left.
    func budget(of body: [Frame]) -> Duration?
    /// The body as a worker receives it, after `waited` in the queue with
    /// `remaining` of its budget left.
    func body(_ body: [Frame], waited: Duration, remaining: Duration) -> [Frame]
}

extension BrokerReplies {
    /// A format that carries no budget: requests wait the queue wait only.
    public func budget(of body: [Frame]) -> Duration? { nil }
    public func body(_ body: [Frame], waited: Duration, remaining: Duration) -> [Frame] { body }
}

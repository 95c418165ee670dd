/// The deadline of the request being served, for the calls made on its
/// behalf: a client call made while serving a request sends no more than
/// the time that request has left (`GatewayConnection.call` reads it), as
/// gRPC passes its deadlines on.
public enum RPCDeadline {
    @TaskLocal public static var current: ContinuousClock.Instant?

    /// What is left of `budget` under the current deadline, if any.
    public static func remaining(within budget: Duration, now: ContinuousClock.Instant = .now) -> Duration {
        guard let current else { return budget }
        return min(budget, max(.zero, now.duration(to: current)))
    }
}

import Synchronization
import SystemSupport

/// How many connections a process's own ZMTP listeners may hold at once,
/// shared by them (the gateway's router and its event bus, on two threads),
/// so that together they leave the process's reserve of descriptors alone.
public final class ConnectionBudget: Sendable {
    public let limit: Int
    private let used = Atomic<Int>(0)

    public init(limit: Int) { self.limit = max(1, limit) }

    /// A budget of the process's own: its descriptor limit less the reserve.
    public static func withinDescriptorLimit() -> ConnectionBudget {
        ConnectionBudget(limit: DescriptorLimit.current.connections)
    }

    /// Connections held now.
    public var count: Int { used.load(ordering: .relaxed) }

    /// Takes one; false when all are taken.
    func take() -> Bool {
        var current = used.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = used.compareExchange(expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    func give() { used.subtract(1, ordering: .relaxed) }
}

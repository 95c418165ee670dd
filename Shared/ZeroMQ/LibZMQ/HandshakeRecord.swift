import CZeroMQ
import Synchronization

/// The latest handshake outcome of a client's or worker's connections:
/// a success clears a failure. Any thread.
public final class HandshakeRecord: Sendable {
    private let latest = Mutex<HandshakeEvent?>(nil)

    public init() {}

    /// Records an event; returns true when it differs from the one before,
    /// so a caller logs a repeated failure once.
    @discardableResult
    public func record(_ event: HandshakeEvent) -> Bool {
        latest.withLock { latest in
            defer { latest = event }
            return latest != event
        }
    }

    /// The failure last seen, unless a handshake has succeeded since.
    public var failure: HandshakeEvent? {
        latest.withLock { $0 == .succeeded ? nil : $0 }
    }
}

import CZeroMQ
import Synchronization

/// The connection events of one socket (connected, handshake outcome,
/// disconnected), read where that socket is polled: `socket` goes into the
/// same poller, and `take()` drains what came. No thread of its own, unlike
/// `HandshakeWatch`.
///
/// Thread rules: make it before the watched socket connects. Read it on
/// the socket's own thread and close both with `close(with:)`, or read it
/// until the monitor stops (`HandshakeWatch`, on a thread of its own).
///
/// libzmq sends monitor events from the context's I/O thread, and waits
/// while the monitor's PAIR has no peer: an event sent after our end is
/// closed blocks that thread, and with it every socket of the context. So
/// monitoring is switched off while our end still listens, before either
/// socket closes.
public final class ConnectionMonitor {
    private static let counter = Atomic<Int>(0)
    /// The PAIR socket the events arrive on: poll it for readable.
    public let socket: Socket

    public init(watching watched: Socket) throws {
        let address = "inproc://connection-monitor-\(Self.counter.add(1, ordering: .relaxed).newValue)"
        let events =
            ZMQ_EVENT_HANDSHAKE_SUCCEEDED | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL | ZMQ_EVENT_HANDSHAKE_FAILED_AUTH
            | ZMQ_EVENT_CONNECTED | ZMQ_EVENT_DISCONNECTED
        guard zmq_socket_monitor(watched.handle, address, events) == 0 else {
            throw ZMQError.last("monitor \(watched.type) socket")
        }
        socket = try Socket(watched.context, .pair)
        try socket.connect(address)
    }

    /// The events that came since the last call, oldest first, without waiting.
    public func take() -> [HandshakeWatch.Monitored] {
        var events: [HandshakeWatch.Monitored] = []
        while let frames = try? socket.receive(wait: false), let event = HandshakeWatch.decode(frames) { events.append(event) }
        return events
    }

    /// Stops watching `watched` (its last event, MONITOR_STOPPED, still
    /// finds this end open), then closes this end and `watched`.
    public func close(with watched: Socket) {
        _ = take()  // room in the queue for the last event
        zmq_socket_monitor(watched.handle, nil, 0)
        socket.close()
        watched.close()
    }
}

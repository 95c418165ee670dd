import CZeroMQ
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// A failed libzmq call: the errno it left and libzmq's text for it.
public struct ZMQError: Error, Equatable, CustomStringConvertible {
    /// The errno value (POSIX or libzmq's own, such as ETERM).
    public let code: Int32
    /// `zmq_strerror(code)`.
    public let message: String
    /// What we were doing, with the value involved ("bind ipc:///tmp/x").
    public let operation: String

    public init(code: Int32, operation: String) {
        self.code = code
        self.message = String(cString: zmq_strerror(code))
        self.operation = operation
    }

    static func last(_ operation: @autoclosure () -> String) -> ZMQError {
        ZMQError(code: zmq_errno(), operation: operation())
    }

    /// The context was shut down or terminated: a clean stop, not a fault.
    public var isTerminated: Bool { code == czmq_ETERM }
    /// The call would have blocked (non-blocking mode, or a high-water mark).
    public var isWouldBlock: Bool { code == EAGAIN }
    /// A ROUTER_MANDATORY socket was asked to send to a peer it does not know.
    public var isHostUnreachable: Bool { code == EHOSTUNREACH }

    public var description: String { "\(operation): \(message) (errno \(code))" }
}

/// Calls `body` again while it fails with EINTR (a signal arrived mid-call).
@inline(__always)
func retryingOnInterrupt(_ body: () -> Int32) -> Int32 {
    while true {
        let rc = body()
        if rc == -1 && zmq_errno() == EINTR { continue }
        return rc
    }
}

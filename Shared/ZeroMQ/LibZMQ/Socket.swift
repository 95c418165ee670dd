import CZeroMQ

/// A libzmq socket.
///
/// Thread rules: a socket belongs to one thread. libzmq sockets are not
/// thread-safe, so this type is deliberately not `Sendable`: create it on the
/// thread that uses it and close it there. Blocking calls return early with
/// ETERM (`ZMQError.isTerminated`) once the context is shut down.
///
/// Sockets are made with `linger` 0: closing one drops unsent messages
/// instead of blocking the context's termination. Set it higher if a socket
/// must flush on close.
public final class Socket {
    let handle: UnsafeMutableRawPointer
    public let type: SocketType
    /// Kept so the context outlives its sockets (zmq_ctx_term waits for them).
    let context: Context
    private var isClosed = false

    public init(_ context: Context, _ type: SocketType) throws {
        guard let handle = zmq_socket(context.handle, type.rawValue) else {
            throw ZMQError.last("create \(type) socket")
        }
        self.handle = handle
        self.type = type
        self.context = context
        try set(.linger, 0)
    }

    deinit { close() }

    public func close() {
        guard !isClosed else { return }
        isClosed = true
        zmq_close(handle)
    }

    /// Binds, as a CURVE server where the context's `Security` says so.
    public func bind(_ endpoint: String) throws {
        try context.security.prepare(self, toBind: endpoint)
        try check(zmq_bind(handle, endpoint), "bind \(endpoint)")
    }

    /// Connects, as a CURVE client where the context's `Security` says so.
    public func connect(_ endpoint: String) throws {
        try context.security.prepare(self, toConnect: endpoint)
        try check(zmq_connect(handle, endpoint), "connect \(endpoint)")
    }

    public func unbind(_ endpoint: String) throws {
        try check(zmq_unbind(handle, endpoint), "unbind \(endpoint)")
    }

    public func disconnect(_ endpoint: String) throws {
        try check(zmq_disconnect(handle, endpoint), "disconnect \(endpoint)")
    }

    public func set<Value>(_ option: SocketOption<Value>, _ value: Value) throws {
        try check(Value.set(value, option: option.rawValue, on: handle), "set socket option \(option.rawValue)")
    }

    public func get<Value>(_ option: SocketOption<Value>) throws -> Value {
        guard let value = Value.get(option: option.rawValue, from: handle) else {
            throw ZMQError.last("get socket option \(option.rawValue)")
        }
        return value
    }

    /// Sends all frames as one atomic multipart message.
    ///
    /// With `wait: false` returns false instead of blocking when the message
    /// cannot be queued now (high-water mark, or no peer yet). libzmq accepts
    /// the remaining parts once it accepted the first, so a message is either
    /// queued whole or not at all.
    @discardableResult
    public func send(_ frames: [Frame], wait: Bool = true) throws -> Bool {
        precondition(!frames.isEmpty, "a message has at least one frame")
        let last = frames.count - 1
        var outgoing = zmq_msg_t()
        for (index, frame) in frames.enumerated() {
            var flags: Int32 = index < last ? ZMQ_SNDMORE : 0
            if !wait { flags |= ZMQ_DONTWAIT }
            zmq_msg_init(&outgoing)
            frame.storage.copy(into: &outgoing)
            let rc = retryingOnInterrupt { zmq_msg_send(&outgoing, handle, flags) }
            if rc == -1 {
                let error = ZMQError.last("send on \(type) socket")
                zmq_msg_close(&outgoing)
                if index == 0 && error.isWouldBlock && !wait { return false }
                throw error
            }
        }
        return true
    }

    /// Sends frames built from text; a convenience for tests and tools.
    @discardableResult
    public func send(_ strings: [String], wait: Bool = true) throws -> Bool {
        try send(strings.map(Frame.init(_:)), wait: wait)
    }

    /// Receives one whole multipart message. With `wait: false` returns nil
    /// when nothing is waiting.
    public func receive(wait: Bool = true) throws -> [Frame]? {
        var frames: [Frame] = []
        // Room for 8 frames, so a message of a few parts (a broker's, with
        // routing ids and delimiters) is received without growing the array.
        frames.reserveCapacity(8)
        let flags: Int32 = wait ? 0 : ZMQ_DONTWAIT
        while true {
            let storage = Frame.Storage()
            let rc = storage.withMessage { message in
                retryingOnInterrupt { zmq_msg_recv(message, handle, frames.isEmpty ? flags : 0) }
            }
            if rc == -1 {
                let error = ZMQError.last("receive on \(type) socket")
                if frames.isEmpty && error.isWouldBlock && !wait { return nil }
                throw error
            }
            storage.seal()
            frames.append(Frame(storage: storage))
            if storage.withMessage({ zmq_msg_more($0) }) == 0 { return frames }
        }
    }

    /// The endpoint bound last, with any wildcard port resolved.
    public var lastEndpoint: String? { try? get(.lastEndpoint) }

    private func check(_ rc: Int32, _ operation: @autoclosure () -> String) throws {
        if rc != 0 { throw ZMQError.last(operation()) }
    }
}

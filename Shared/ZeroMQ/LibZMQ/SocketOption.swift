import CZeroMQ

/// A socket option with the Swift type of its value: `socket.set(.linger, 0)`.
public struct SocketOption<Value: SocketOptionValue>: Sendable {
    public let rawValue: Int32
    public init(_ rawValue: Int32) { self.rawValue = rawValue }
}

extension SocketOption where Value == Int32 {
    /// Milliseconds unsent messages are kept after close; -1 keeps them forever.
    public static var linger: Self { .init(ZMQ_LINGER) }
    public static var sendHighWaterMark: Self { .init(ZMQ_SNDHWM) }
    public static var receiveHighWaterMark: Self { .init(ZMQ_RCVHWM) }
    public static var reconnectInterval: Self { .init(ZMQ_RECONNECT_IVL) }
    public static var reconnectIntervalMax: Self { .init(ZMQ_RECONNECT_IVL_MAX) }
    public static var handshakeInterval: Self { .init(ZMQ_HANDSHAKE_IVL) }
    /// Milliseconds between ZMTP PINGs on each connection; 0: none.
    public static var heartbeatInterval: Self { .init(ZMQ_HEARTBEAT_IVL) }
    /// Milliseconds without any traffic after a PING before the connection
    /// is taken as dead and closed.
    public static var heartbeatTimeout: Self { .init(ZMQ_HEARTBEAT_TIMEOUT) }
    /// ZMQ_FD: readable when the socket may have news (edge-triggered; see
    /// `Poller.waitAfterDraining`).
    public static var fileDescriptor: Self { .init(ZMQ_FD) }
}

extension SocketOption where Value == Int64 {
    /// Largest inbound frame in bytes (libzmq checks each frame of a multipart
    /// message); a peer that sends more is disconnected. -1: no limit.
    public static var maxMessageSize: Self { .init(ZMQ_MAXMSGSIZE) }
}

extension SocketOption where Value == Bool {
    /// ROUTER: fail with EHOSTUNREACH, instead of dropping, when the peer is unknown.
    public static var routerMandatory: Self { .init(ZMQ_ROUTER_MANDATORY) }
    /// Queue messages only to completed connections.
    public static var immediate: Self { .init(ZMQ_IMMEDIATE) }
    public static var curveServer: Self { .init(ZMQ_CURVE_SERVER) }
    public static var xpubVerbose: Self { .init(ZMQ_XPUB_VERBOSE) }
    public static var receiveMore: Self { .init(ZMQ_RCVMORE) }
}

extension SocketOption where Value == [UInt8] {
    /// The identity a ROUTER peer sees for this socket.
    public static var routingID: Self { .init(ZMQ_ROUTING_ID) }
    public static var subscribe: Self { .init(ZMQ_SUBSCRIBE) }
    public static var unsubscribe: Self { .init(ZMQ_UNSUBSCRIBE) }
}

extension SocketOption where Value == String {
    /// CURVE keys as 40-character Z85 text.
    public static var curvePublicKey: Self { .init(ZMQ_CURVE_PUBLICKEY) }
    public static var curveSecretKey: Self { .init(ZMQ_CURVE_SECRETKEY) }
    public static var curveServerKey: Self { .init(ZMQ_CURVE_SERVERKEY) }
    /// The endpoint last bound, with the port chosen for `tcp://*:*` filled in.
    public static var lastEndpoint: Self { .init(ZMQ_LAST_ENDPOINT) }
}

extension Int32: IntegerSocketOptionValue {}

extension Int64: IntegerSocketOptionValue {}

extension Bool: SocketOptionValue {
    public static func set(_ value: Bool, option: Int32, on handle: UnsafeMutableRawPointer) -> Int32 {
        Int32.set(value ? 1 : 0, option: option, on: handle)
    }

    public static func get(option: Int32, from handle: UnsafeMutableRawPointer) -> Bool? {
        Int32.get(option: option, from: handle).map { $0 != 0 }
    }
}

extension Array: SocketOptionValue where Element == UInt8 {
    public static func set(_ value: [UInt8], option: Int32, on handle: UnsafeMutableRawPointer) -> Int32 {
        value.withUnsafeBytes { zmq_setsockopt(handle, option, $0.baseAddress, $0.count) }
    }

    public static func get(option: Int32, from handle: UnsafeMutableRawPointer) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 256)
        var size = buffer.count
        guard zmq_getsockopt(handle, option, &buffer, &size) == 0 else { return nil }
        return Array(buffer.prefix(size))
    }
}

extension String: SocketOptionValue {
    /// Sent with its terminating NUL, as libzmq expects for Z85 keys.
    public static func set(_ value: String, option: Int32, on handle: UnsafeMutableRawPointer) -> Int32 {
        value.withCString { zmq_setsockopt(handle, option, $0, value.utf8.count + 1) }
    }

    public static func get(option: Int32, from handle: UnsafeMutableRawPointer) -> String? {
        var buffer = [CChar](repeating: 0, count: 1024)
        var size = buffer.count
        guard zmq_getsockopt(handle, option, &buffer, &size) == 0 else { return nil }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// ZMTP 3.1, ZeroMQ's wire protocol (rfc.zeromq.org/spec/23), as far as a
/// ROUTER with the NULL mechanism needs it: the greeting, the READY, ERROR
/// and PING/PONG commands, and frame headers. libzmq peers speak it as is.
public enum ZMTP {
    /// What a peer may send: larger frames cost it the connection, longer
    /// messages are dropped.
    public struct Limits: Sendable {
        public var maxFrameSize: Int
        public var maxFrames: Int
        /// How long a peer that connected may take to finish its
        /// handshake (libzmq's ZMQ_HANDSHAKE_IVL is 30 s too).
        public var handshakeTimeout: Duration
        /// Frames of the protocol on top (its headers): one that arrives
        /// with the same bytes is handed on shared, not copied.
        public var sharedFrames: SharedFrames

        public init(maxFrameSize: Int, maxFrames: Int, handshakeTimeout: Duration = .seconds(30), sharedFrames: SharedFrames = SharedFrames([])) {
            self.maxFrameSize = maxFrameSize
            self.maxFrames = maxFrames
            self.handshakeTimeout = handshakeTimeout
            self.sharedFrames = sharedFrames
        }
    }

    static let greetingSize = 64

    /// Frame flags: the first byte of every frame.
    static let more: UInt8 = 0x01
    static let long: UInt8 = 0x02
    static let command: UInt8 = 0x04

    /// Our greeting: signature, version 3.1, mechanism NULL, not as-server
    /// (NULL has no roles), filler.
    static let greeting: [UInt8] = {
        var bytes = [UInt8](repeating: 0, count: greetingSize)
        bytes[0] = 0xFF
        bytes[9] = 0x7F
        bytes[10] = 3
        bytes[11] = 1
        for (index, byte) in "NULL".utf8.enumerated() { bytes[12 + index] = byte }
        return bytes
    }()

    /// Why a peer's greeting is refused.
    enum GreetingProblem: Equatable, CustomStringConvertible {
        case notZMTP
        case version(major: UInt8)
        case mechanism(String)

        var description: String {
            switch self {
            case .notZMTP: "it does not speak ZMTP"
            case .version(let major): "it speaks ZMTP \(major).x; this end speaks 3.x"
            case .mechanism(let name): "it asks for the \(name) mechanism; ipc:// here is plaintext (NULL)"
            }
        }
    }

    /// Checks a peer's 64-byte greeting.
    static func check(greeting bytes: UnsafeRawBufferPointer) -> GreetingProblem? {
        guard bytes.count >= greetingSize, bytes[0] == 0xFF, bytes[9] & 0x01 == 1 else { return .notZMTP }
        guard bytes[10] >= 3 else { return .version(major: bytes[10]) }
        let mechanism = bytes[12..<32].prefix { $0 != 0 }
        guard mechanism.elementsEqual("NULL".utf8) else {
            return .mechanism(String(decoding: mechanism.map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }, as: UTF8.self))
        }
        return nil
    }

    /// Appends a frame header: flags, then the size in one byte or eight.
    static func appendHeader(to output: inout [UInt8], size: Int, flags: UInt8) {
        if size <= 255 {
            output.append(flags)
            output.append(UInt8(size))
        } else {
            output.append(flags | long)
            var big = UInt64(size).bigEndian
            withUnsafeBytes(of: &big) { output.append(contentsOf: $0) }
        }
    }

    /// A whole command frame: the name (length-prefixed), then `data`.
    static func appendCommand(to output: inout [UInt8], name: String, data: [UInt8]) {
        appendHeader(to: &output, size: 1 + name.utf8.count + data.count, flags: command)
        output.append(UInt8(name.utf8.count))
        output.append(contentsOf: name.utf8)
        output.append(contentsOf: data)
    }

    /// READY with the metadata properties Socket-Type and, when given, Identity.
    static func ready(socketType: String, identity: [UInt8]?) -> [UInt8] {
        var data: [UInt8] = []
        appendProperty(to: &data, name: "Socket-Type", value: Array(socketType.utf8))
        if let identity { appendProperty(to: &data, name: "Identity", value: identity) }
        var output: [UInt8] = []
        appendCommand(to: &output, name: "READY", data: data)
        return output
    }

    /// ERROR with a reason (at most 255 bytes); the peer closes after it.
    static func error(reason: String) -> [UInt8] {
        let text = Array(reason.utf8.prefix(255))
        var output: [UInt8] = []
        appendCommand(to: &output, name: "ERROR", data: [UInt8(text.count)] + text)
        return output
    }

    static func appendProperty(to data: inout [UInt8], name: String, value: [UInt8]) {
        data.append(UInt8(name.utf8.count))
        data.append(contentsOf: name.utf8)
        var length = UInt32(value.count).bigEndian
        withUnsafeBytes(of: &length) { data.append(contentsOf: $0) }
        data.append(contentsOf: value)
    }

    /// A command's name and data, or nil when its name runs past its end.
    static func command(_ body: UnsafeRawBufferPointer) -> (name: String, data: UnsafeRawBufferPointer)? {
        guard let length = body.first.map(Int.init), body.count >= 1 + length else { return nil }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: body[1..<(1 + length)]), as: UTF8.self)
        return (name, UnsafeRawBufferPointer(rebasing: body[(1 + length)...]))
    }

    /// The value of property `wanted` (names compare without case) in a
    /// READY's metadata; nil when absent or when the metadata is malformed.
    static func property(_ wanted: String, in data: UnsafeRawBufferPointer) -> [UInt8]? {
        var at = 0
        while at < data.count {
            let nameLength = Int(data[at])
            let valueAt = at + 1 + nameLength + 4
            guard valueAt <= data.count else { return nil }
            let name = String(decoding: UnsafeRawBufferPointer(rebasing: data[(at + 1)..<(at + 1 + nameLength)]), as: UTF8.self)
            var length = 0
            for byte in data[(valueAt - 4)..<valueAt] { length = length << 8 | Int(byte) }
            guard valueAt + length <= data.count else { return nil }
            if name.lowercased() == wanted.lowercased() { return Array(data[valueAt..<(valueAt + length)]) }
            at = valueAt + length
        }
        return nil
    }

    /// Socket types that may talk to a ROUTER (RFC 28 and libzmq).
    static let routerPeers: Set<String> = ["DEALER", "REQ", "ROUTER"]
}

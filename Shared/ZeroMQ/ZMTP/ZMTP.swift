/// ZMTP 3.1, ZeroMQ's wire protocol (rfc.zeromq.org/spec/23), as far as a
/// ROUTER or DEALER with the NULL or CURVE mechanism needs it: the greeting,
/// the READY, ERROR and PING/PONG commands, CURVE's (RFC 26, in Curve/),
/// and frame headers. libzmq peers speak it as is. Its parts, none of which
/// makes a system call: `ZMTPDecoder` (bytes to greeting, commands and
/// messages), `ZMTPEncoder` (frames and commands to bytes) and
/// `ZMTPSession` (the handshake and what each command asks for);
/// `ZMTPConnection` only reads and writes.
public enum ZMTP {
    static let greetingSize = 64
    /// Largest command taken (READY with its metadata, PING, ERROR): commands
    /// are small, and one this large is not a command but a flood.
    static let maxCommandSize = 1 << 16

    /// Frame flags: the first byte of every frame.
    static let more: UInt8 = 0x01
    static let long: UInt8 = 0x02
    static let command: UInt8 = 0x04
    /// Inside a CURVE box only, between our own ends (`X-Whole-Messages`):
    /// the box holds a whole message, its frames ZMTP-encoded, not one frame.
    static let wholeMessage: UInt8 = 0x40

    /// Our greeting: signature, version 3.1, the mechanism (NULL, or CURVE
    /// with whether this end is the server, as RFC 23 asks), filler.
    static func greeting(curve: CurveRole?) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: greetingSize)
        bytes[0] = 0xFF
        bytes[9] = 0x7F
        bytes[10] = 3
        bytes[11] = 1
        let name = curve == nil ? "NULL" : "CURVE"
        for (index, byte) in name.utf8.enumerated() { bytes[12 + index] = byte }
        if case .server? = curve { bytes[32] = 1 }
        return bytes
    }

    static let greeting = greeting(curve: nil)

    /// Why a peer's greeting is refused.
    enum GreetingProblem: Equatable, CustomStringConvertible {
        case notZMTP
        case version(major: UInt8)
        case mechanism(String, ours: String)

        var description: String {
            switch self {
            case .notZMTP: "it does not speak ZMTP"
            case .version(let major): "it speaks ZMTP \(major).x; this end speaks 3.x"
            case .mechanism(let name, "NULL"): "it asks for the \(name) mechanism; this endpoint is plaintext (NULL)"
            case .mechanism(let name, let ours): "it asks for the \(name) mechanism; this endpoint speaks \(ours) only"
            }
        }
    }

    /// Checks a peer's 64-byte greeting against the mechanism this end speaks.
    static func check(greeting bytes: UnsafeRawBufferPointer, curve: CurveRole? = nil) -> GreetingProblem? {
        guard bytes.count >= greetingSize, bytes[0] == 0xFF, bytes[9] & 0x01 == 1 else { return .notZMTP }
        guard bytes[10] >= 3 else { return .version(major: bytes[10]) }
        let ours = curve == nil ? "NULL" : "CURVE"
        let mechanism = bytes[12..<32].prefix { $0 != 0 }
        guard mechanism.elementsEqual(ours.utf8) else {
            return .mechanism(String(decoding: mechanism.map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }, as: UTF8.self), ours: ours)
        }
        // The as-server byte is not checked: libzmq 4.3 leaves it 0 at
        // both ends; the roles show in the commands each end sends.
        return nil
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

/// RFC 26's fixed bytes: command names, and the prefixes that make each
/// box's nonce its own (a box made for one purpose never opens as another).
enum CurveWire {
    static let hello = "HELLO", welcome = "WELCOME", initiate = "INITIATE", ready = "READY", message = "MESSAGE"
    static let helloNonce = Array("CurveZMQHELLO---".utf8)
    static let welcomeNonce = Array("WELCOME-".utf8)
    static let cookieNonce = Array("COOKIE--".utf8)
    static let initiateNonce = Array("CurveZMQINITIATE".utf8)
    static let vouchNonce = Array("VOUCH---".utf8)
    static let readyNonce = Array("CurveZMQREADY---".utf8)
    static let clientMessageNonce = Array("CurveZMQMESSAGEC".utf8)
    static let serverMessageNonce = Array("CurveZMQMESSAGES".utf8)
    /// The metadata property by which each of our ends says it takes a
    /// whole message in one box (`ZMTP.wholeMessage`); libzmq ignores it.
    static let wholeMessages = "X-Whole-Messages"

    /// HELLO's data: version, padding, C', short nonce, box.
    static let helloSize = 2 + 72 + 32 + 8 + 80
    /// WELCOME's data: long nonce, box of S' and the cookie.
    static let welcomeSize = 16 + 144
    static let cookieSize = 96
    /// INITIATE's data at least: cookie, short nonce, box of C, the vouch's
    /// nonce and box (metadata follows).
    static let initiateMinimum = cookieSize + 8 + Sodium.macSize + 32 + 16 + 80
    /// A MESSAGE's data at least: short nonce, box of the flags byte.
    static let messageMinimum = 8 + Sodium.macSize + 1
    /// What a MESSAGE adds to a frame's bytes: name, nonce, authenticator, flags.
    static let messageOverhead = 8 + 8 + Sodium.macSize + 1

    /// A 24-byte nonce: a prefix, then a short nonce (8 bytes, big-endian)
    /// or the rest of a long one.
    static func nonce(_ prefix: [UInt8], _ rest: [UInt8]) -> [UInt8] { prefix + rest }

    static func bytes(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }

    static func number(_ bytes: UnsafeRawBufferPointer.SubSequence) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A command frame's bytes.
    static func command(_ name: String, _ data: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        ZMTPEncoder.appendCommand(to: &output, name: name, data: data)
        return output
    }
}

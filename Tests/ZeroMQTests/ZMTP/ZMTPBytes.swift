@testable import ZeroMQ

/// Byte arrays a peer might send, for the codec's tests: no socket anywhere.
enum ZMTPBytes {
    /// A valid greeting: signature, version 3.1, NULL.
    static var greeting: [UInt8] { ZMTP.greeting }

    static func greeting(major: UInt8 = 3, mechanism: String = "NULL", signature: UInt8 = 0xFF) -> [UInt8] {
        var bytes = ZMTP.greeting
        bytes[0] = signature
        bytes[10] = major
        for index in 12..<32 { bytes[index] = 0 }
        for (index, byte) in mechanism.utf8.prefix(20).enumerated() { bytes[12 + index] = byte }
        return bytes
    }

    static func ready(socketType: String = "DEALER", identity: [UInt8]? = nil) -> [UInt8] {
        ZMTPEncoder.ready(socketType: socketType, identity: identity)
    }

    static func command(_ name: String, _ data: [UInt8] = []) -> [UInt8] {
        var bytes: [UInt8] = []
        ZMTPEncoder.appendCommand(to: &bytes, name: name, data: data)
        return bytes
    }

    static func message(_ frames: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = []
        ZMTPEncoder.append(frames.map { Frame($0) }, from: 0, to: &bytes)
        return bytes
    }

    /// A frame header announcing `size` bytes, with no body.
    static func header(size: Int, flags: UInt8 = 0) -> [UInt8] {
        var bytes: [UInt8] = []
        ZMTPEncoder.appendHeader(to: &bytes, size: size, flags: flags)
        return bytes
    }

    /// What a libzmq DEALER sends first: greeting, then READY.
    static var opening: [UInt8] { greeting + ready() }
}

/// Records what a session hands on; admits or refuses as told.
struct RecordingDelegate: ZMTPSessionDelegate {
    var refusal: String?
    var prefix: Frame?
    /// CURVE client keys refused, and those asked about.
    var refusedKeys: Set<[UInt8]> = []
    var askedKeys: [[UInt8]] = []
    var readies = 0
    var messages: [[Frame]] = []
    var dropped: [PeerProblem] = []

    mutating func ready(metadata: UnsafeRawBufferPointer) -> ZMTPSession.Admission {
        readies += 1
        if let refusal { return .refused(refusal) }
        return .admitted(prefix: prefix)
    }

    mutating func admits(clientKey: [UInt8]) -> Bool {
        askedKeys.append(clientKey)
        return !refusedKeys.contains(clientKey)
    }

    mutating func message(_ frames: [Frame]) { messages.append(frames) }
    mutating func dropped(_ problem: PeerProblem) { dropped.append(problem) }
}

extension ZMTPSession {
    /// A router's session, as the gateway makes one.
    static func router(_ limits: ZMTP.Limits = ZMTP.Limits(maxFrameSize: 1000, maxFrames: 4, maxMessageSize: 1500)) -> ZMTPSession {
        ZMTPSession(socketType: "ROUTER", peerTypes: ZMTP.routerPeers, limits: limits)
    }

    /// Feeds `bytes` in pieces of `chunk` bytes, as reads might deliver them.
    mutating func feed(_ bytes: [UInt8], chunk: Int = .max, to delegate: inout RecordingDelegate) {
        var at = 0
        while at < bytes.count, stage != .ended {
            let end = min(bytes.count, at + max(1, chunk))
            bytes[at..<end].withUnsafeBytes { receive($0, delegate: &delegate) }
            at = end
        }
    }

    /// What waits to be written, as bytes.
    var written: [UInt8] { output.withUnwritten { Array($0) } }

    /// The ERROR reason the session queued for the peer, if any.
    var errorReason: String? {
        let bytes = written
        guard let range = bytes.firstRange(of: Array("\u{5}ERROR".utf8)) else { return nil }
        let length = Int(bytes[range.upperBound])
        return String(decoding: bytes[(range.upperBound + 1)...].prefix(length), as: UTF8.self)
    }
}

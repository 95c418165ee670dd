/// Turns frames and commands into ZMTP bytes (rfc.zeromq.org/spec/23):
/// pure functions over a byte array, no system calls.
enum ZMTPEncoder {
    /// Appends the frames of a message from `first` on, as ZMTP frames.
    static func append(_ frames: [Frame], from first: Int, to output: inout [UInt8]) {
        let last = frames.count - 1
        for index in first...last {
            frames[index].withUnsafeBytes { body in
                appendHeader(to: &output, size: body.count, flags: index < last ? ZMTP.more : 0)
                output.append(contentsOf: body)
            }
        }
    }

    /// A frame header's length for a body of `size` bytes: 2, or 9 past 255.
    static func headerLength(size: Int) -> Int { size <= 255 ? 2 : 9 }

    /// Appends a frame header: flags, then the size in one byte or eight.
    static func appendHeader(to output: inout [UInt8], size: Int, flags: UInt8) {
        if headerLength(size: size) == 2 {
            output.append(flags)
            output.append(UInt8(size))
        } else {
            output.append(flags | ZMTP.long)
            var big = UInt64(size).bigEndian
            withUnsafeBytes(of: &big) { output.append(contentsOf: $0) }
        }
    }

    /// A whole command frame: the name (length-prefixed), then `data`.
    static func appendCommand(to output: inout [UInt8], name: String, data: [UInt8]) {
        appendHeader(to: &output, size: 1 + name.utf8.count + data.count, flags: ZMTP.command)
        output.append(UInt8(name.utf8.count))
        output.append(contentsOf: name.utf8)
        output.append(contentsOf: data)
    }

    /// READY with the metadata properties Socket-Type and, when given, Identity.
    static func ready(socketType: String, identity: [UInt8]?) -> [UInt8] {
        var output: [UInt8] = []
        appendCommand(to: &output, name: "READY", data: metadata(socketType: socketType, identity: identity))
        return output
    }

    /// The metadata properties Socket-Type and, when given, Identity (in
    /// READY, or in CURVE's INITIATE and READY boxes).
    static func metadata(socketType: String, identity: [UInt8]?) -> [UInt8] {
        var data: [UInt8] = []
        appendProperty(to: &data, name: "Socket-Type", value: Array(socketType.utf8))
        if let identity { appendProperty(to: &data, name: "Identity", value: identity) }
        return data
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
}

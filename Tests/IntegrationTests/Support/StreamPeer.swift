import Foundation
@testable import ZeroMQ

/// A peer that speaks just enough ZMTP over a Unix or TCP socket to do what a
/// careless or hostile program would: send without reading, read slowly,
/// leave a message half sent. Its socket is non-blocking.
///
/// Thread rules: one thread at a time (a test may hand it to a thread of
/// its own, and then leave it alone).
final class StreamPeer: @unchecked Sendable {
    let descriptor: Int32

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw HarnessError("socket failed: errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw HarnessError("connect \(path) failed: errno \(code)")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    /// Connects to an ipc:// or tcp:// endpoint (over loopback, a TCP
    /// connect is done as soon as asked, as a Unix one is).
    convenience init(endpoint: String) throws {
        guard endpoint.hasPrefix("tcp://") else {
            try self.init(path: String(endpoint.dropFirst("ipc://".count)))
            return
        }
        guard let address = StreamAddress(endpoint, forBinding: false) else { throw HarnessError("\(endpoint) is no numeric tcp:// address") }
        let descriptor = socket(address.domain, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw HarnessError("socket failed: errno \(errno)") }
        guard address.withSockaddr({ connect(descriptor, $0, $1) }) == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw HarnessError("connect \(endpoint) failed: errno \(code)")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        self.init(descriptor: descriptor)
    }

    /// Takes a connected, non-blocking socket.
    private init(descriptor: Int32) { self.descriptor = descriptor }

    /// A connection to hold open, its greeting and READY (as `identity`)
    /// written as far as they go; nil when it cannot even be asked for. A
    /// tcp:// connect does not wait: one the listener's backlog cannot take
    /// yet stays pending (the kernel tries again) instead of blocking the
    /// test, as an ipc:// one that is queued would not.
    static func holding(_ endpoint: String, identity: String) -> StreamPeer? {
        guard endpoint.hasPrefix("tcp://") else {
            let peer = try? StreamPeer(endpoint: endpoint)
            try? peer?.open(identity: identity)
            return peer
        }
        guard let address = StreamAddress(endpoint, forBinding: false) else { return nil }
        let descriptor = socket(address.domain, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        guard address.withSockaddr({ connect(descriptor, $0, $1) }) == 0 || errno == EINPROGRESS else {
            Glibc.close(descriptor)
            return nil
        }
        let peer = StreamPeer(descriptor: descriptor)
        peer.queue(ZMTP.greeting + ZMTPEncoder.ready(socketType: "DEALER", identity: Array(identity.utf8)))
        _ = peer.flush()
        return peer
    }

    deinit { Glibc.close(descriptor) }

    /// Greeting and READY, as a libzmq socket of `socketType` sends them.
    func open(socketType: String = "DEALER", identity: String? = nil) throws {
        let bytes = ZMTP.greeting + ZMTPEncoder.ready(socketType: socketType, identity: identity.map { Array($0.utf8) })
        // A few dozen bytes on a new connection: the socket's buffer takes them at once.
        queue(bytes)
        guard flush() == 0 else { throw HarnessError("the opening was not taken") }
    }

    static func message(_ frames: [Frame]) -> [UInt8] {
        var bytes: [UInt8] = []
        ZMTPEncoder.append(frames, from: 0, to: &bytes)
        return bytes
    }

    static func command(_ name: String, _ data: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        ZMTPEncoder.appendCommand(to: &bytes, name: name, data: data)
        return bytes
    }

    /// Writes `chunk` again and again, never reading, until `limit` bytes
    /// are written, the other end closes, or nothing could be written for
    /// `stallAfter`: returns how much was written and whether it stalled
    /// (the other end stopped reading). `each` runs between writes.
    func push(_ chunk: [UInt8], upTo limit: Int, stallAfter: Duration, each: () -> Void = {}) async -> (written: Int, stalled: Bool) {
        var total = 0
        var offset = 0
        var lastProgress = ContinuousClock.now
        while total < limit {
            let count = chunk.withUnsafeBytes { bytes in
                send(descriptor, bytes.baseAddress! + offset, min(bytes.count - offset, limit - total), Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                total += count
                offset = (offset + count) % chunk.count
                lastProgress = .now
                each()
                continue
            }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                if lastProgress.duration(to: .now) >= stallAfter { return (total, true) }
                each()
                try? await Task.sleep(for: .milliseconds(2))
                continue
            }
            if count < 0, errno == EINTR { continue }
            return (total, false)  // closed by the other end
        }
        return (total, false)
    }

    private var queued: [UInt8] = []

    /// Adds bytes to what `flush` writes.
    func queue(_ bytes: [UInt8]) { queued += bytes }

    /// Writes what it can of what is queued, without waiting; returns how
    /// much is left, or nil once the other end closed.
    func flush() -> Int? {
        while !queued.isEmpty {
            let count = queued.withUnsafeBytes { send(descriptor, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                queued.removeFirst(count)
            } else if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                break
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return nil
            }
        }
        return queued.count
    }

    /// Reads what is there, at most `limit` bytes; nil once the other end closed.
    func read(atMost limit: Int = 1 << 16) -> Int? {
        var buffer = [UInt8](repeating: 0, count: limit)
        let count = recv(descriptor, &buffer, limit, 0)
        if count > 0 { return count }
        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return 0 }
        return nil
    }

    /// Whether the other end closed the connection within `limit`: reads
    /// (and drops) what comes until the end or the deadline.
    func closedByPeer(within limit: Duration) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            guard let count = read() else { return true }
            if count == 0 { try? await Task.sleep(for: .milliseconds(10)) }
        }
        return false
    }
}

/// A process's resident memory and CPU time, from /proc.
enum ProcStat {
    /// VmRSS in bytes.
    static func residentBytes(_ pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }

    /// Whether the process is stopped (SIGSTOP taken: state T).
    static func isStopped(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(after: close)...].split(separator: " ").first == "T"
    }

    /// User plus system CPU time, in seconds.
    static func cpuSeconds(_ pid: pid_t) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name; utime and stime are the 14th and 15th of the line.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

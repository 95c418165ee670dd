#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// What every tcp:// connection of our own ZMTP is set to, at both ends
/// (docs/OPERATIONS.md, "tcp:// connections"):
///
/// - `TCP_NODELAY`: a message is written whole in one call, so Nagle's
///   delay would only hold a small REPLY back for the peer's ACK.
/// - Keepalive after `keepaliveIdle` idle, every `keepaliveInterval`,
///   given up after `keepaliveCount` probes: a peer whose host vanished
///   (no RST) is found within about two minutes even where no heartbeat
///   runs (a subscriber of the event bus).
/// - The socket buffers are the kernel's (net.ipv4.tcp_rmem, tcp_wmem):
///   setting SO_SNDBUF or SO_RCVBUF would turn Linux's autotuning off.
///   What waits for a peer is bounded above them, by `Limits.maxOutput`.
enum TCPOptions {
    static let keepaliveIdle: Int32 = 60
    static let keepaliveInterval: Int32 = 10
    static let keepaliveCount: Int32 = 6

    static func apply(to descriptor: Int32) {
        set(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        set(descriptor, SOL_SOCKET, SO_KEEPALIVE, 1)
        set(descriptor, Int32(IPPROTO_TCP), TCP_KEEPIDLE, keepaliveIdle)
        set(descriptor, Int32(IPPROTO_TCP), TCP_KEEPINTVL, keepaliveInterval)
        set(descriptor, Int32(IPPROTO_TCP), TCP_KEEPCNT, keepaliveCount)
    }

    /// A failure leaves the kernel's default, which still works.
    private static func set(_ descriptor: Int32, _ level: Int32, _ name: Int32, _ value: Int32) {
        var value = value
        _ = setsockopt(descriptor, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }
}

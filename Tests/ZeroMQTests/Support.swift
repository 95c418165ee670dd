import Foundation
import TestSupport
import ZeroMQ

/// Two connected sockets on a fresh inproc endpoint.
func pair(_ context: Context, _ bound: SocketType, _ connected: SocketType) throws -> (Socket, Socket) {
    let endpoint = "inproc://test-\(UUID().uuidString)"
    let a = try Socket(context, bound)
    try a.bind(endpoint)
    let b = try Socket(context, connected)
    try b.connect(endpoint)
    return (a, b)
}

/// Receives with a deadline, so a broken test fails instead of hanging;
/// looks without holding a thread meanwhile.
func receive(_ socket: Socket, within timeout: Duration = .seconds(2)) async throws -> [Frame]? {
    try await firstValue(within: timeout) { try socket.receive(wait: false) }
}

/// As `receive`, blocking this thread: for tests whose sockets live on a
/// thread of their own (`onOwnThread`).
@available(*, noasync, message: "blocks its thread: use receive(_:within:)")
func receiveHere(_ socket: Socket, within timeout: Duration = .seconds(2)) throws -> [Frame]? {
    var poller = Poller()
    poller.addReadable(socket)
    guard try poller.poll(timeout: timeout) > 0 else { return nil }
    return try socket.receive()
}

/// Runs `body` with a fresh directory for ipc:// endpoints, removed after.
func withDirectory(_ body: (String) throws -> Void) throws {
    try withTemporaryDirectory("zmtp", body)
}

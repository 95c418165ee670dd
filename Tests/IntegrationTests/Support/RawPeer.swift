import Foundation
import Majordomo
import TestSupport
import Wire
import ZeroMQ

/// A bare DEALER socket for sending the gateway exactly the frames a test
/// wants, well-formed or not.
final class RawPeer {
    let socket: Socket

    init(_ context: Context, endpoint: String) throws {
        socket = try Socket(context, .dealer)
        try socket.connect(endpoint)
    }

    func send(_ frames: [Frame]) throws { try socket.send(frames) }

    /// The next message, if one comes within `timeout`; looked for without
    /// holding a thread.
    func receive(within timeout: Duration = .seconds(3)) async throws -> [Frame]? {
        try await firstValue(within: timeout) { try socket.receive(wait: false) }
    }

    /// Sends a JSON-RPC request for `method` with the given id, as an MDP client.
    func request(_ service: Frame, id: JSONRPCID, method: String = "echo") throws {
        let body = try JSONRPC.encodeRequest(id: id, method: method, params: JSONValue?.none)
        try send(["", MDP.clientHeader, service, Frame(body)])
    }

    /// Receives one MDP client reply and reads its JSON-RPC id and outcome.
    func response(within timeout: Duration = .seconds(5)) async throws -> (id: JSONRPCID, outcome: Result<JSONValue, JSONRPCError>) {
        guard let reply = try await receive(within: timeout), reply.count == 4 else { throw HarnessError("no MDP reply within \(timeout)") }
        let data = Data(reply[3].bytes)
        let id = JSONRPC.id(in: data) ?? .null
        return (id, Result { () throws(JSONRPCError) in try JSONRPC.decodeResponse(data, as: JSONValue.self) })
    }
}

/// Connects to a Unix socket as a plain byte stream and writes `bytes`:
/// what a confused program, not a ZeroMQ peer, would send.
func writeGarbage(_ bytes: [UInt8], toUnixSocket path: String) async throws {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw HarnessError("socket failed: errno \(errno)") }
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
        for (index, byte) in path.utf8.prefix(capacity - 1).enumerated() { buffer[index] = byte }
    }
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard connected == 0 else { throw HarnessError("connect \(path) failed: errno \(errno)") }
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    try await Task.sleep(for: .milliseconds(50))
}

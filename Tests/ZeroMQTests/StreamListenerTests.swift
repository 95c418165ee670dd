import Foundation
import TestSupport
import TestTraits
import Testing
@testable import ZeroMQ
#if canImport(Glibc)
import Glibc
#endif

@Suite("Stream listener, ipc:// and tcp://", .ownThread, .timeLimit(.minutes(5)))
struct StreamListenerTests {
    @Test func test_anAcceptedConnectionIsNonBlockingAndCloseOnExec_andNoneWaitingIsNone() async throws {
        let directory = try makeTemporaryDirectory("unix")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let endpoint = "ipc://\(directory)/listener.ipc"
        let listener = try StreamListener(endpoint: endpoint)
        defer { listener.close() }
        let client = try #require(StreamListener.connect(to: endpoint))
        defer { _ = Glibc.close(client) }
        guard case .connection(let peer) = listener.accept() else {
            Issue.record("the waiting connection was not accepted")
            return
        }
        defer { _ = Glibc.close(peer) }
        #expect(fcntl(peer, F_GETFL) & O_NONBLOCK != 0, "a read never blocks the router's thread")
        #expect(fcntl(peer, F_GETFD) & FD_CLOEXEC != 0, "a child process does not inherit the connection")
        guard case .none = listener.accept() else {
            Issue.record("nothing waits, so none is accepted, at once")
            return
        }
    }

    @Test func test_aTCPListenerOnAnyPort_reportsThePortItGot_andItsConnectionsSendAtOnceAndAreKeptAlive() async throws {
        let listener = try StreamListener(endpoint: "tcp://127.0.0.1:*")
        defer { listener.close() }
        #expect(listener.endpoint.hasPrefix("tcp://127.0.0.1:") && !listener.endpoint.hasSuffix(":*") && !listener.endpoint.hasSuffix(":0"))
        let client = try #require(StreamListener.connect(to: listener.endpoint))
        defer { _ = Glibc.close(client) }
        var accepted: Int32?
        let deadline = ContinuousClock.now + .seconds(2)
        while accepted == nil, ContinuousClock.now < deadline {
            if case .connection(let peer) = listener.accept() { accepted = peer } else { try await Task.sleep(for: .milliseconds(5)) }
        }
        let peer = try #require(accepted, "the connection was accepted")
        defer { _ = Glibc.close(peer) }
        for descriptor in [client, peer] {
            #expect(option(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY) == 1, "a small reply is not held back for an ACK")
            #expect(option(descriptor, SOL_SOCKET, SO_KEEPALIVE) == 1, "a vanished host is found without a heartbeat")
            #expect(option(descriptor, Int32(IPPROTO_TCP), TCP_KEEPIDLE) == TCPOptions.keepaliveIdle)
            #expect(fcntl(descriptor, F_GETFL) & O_NONBLOCK != 0)
            #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0)
        }
    }

    /// What our ZMTP serves and what it leaves to libzmq: numeric addresses
    /// only (no name lookup on a serving thread), wildcards only to bind.
    @Test(arguments: [
        ("tcp://127.0.0.1:5555", true, true), ("tcp://localhost:5555", true, true), ("tcp://[::1]:5555", true, true),
        ("tcp://10.0.0.1:1", true, true), ("tcp://*:5555", true, false), ("tcp://127.0.0.1:*", true, false),
        ("tcp://*:*", true, false), ("tcp://example.com:5555", false, false), ("tcp://eth0:5555", false, false),
        ("tcp://127.0.0.1:0", false, false), ("tcp://127.0.0.1:65536", false, false), ("tcp://127.0.0.1:+5", false, false),
        ("tcp://127.0.0.1", false, false), ("tcp://::1:5555", false, false), ("ipc:///tmp/x.ipc", true, true),
        ("ipc://@abstract", true, true), ("ipc://*", false, false), ("inproc://x", false, false),
    ])
    func test_anEndpointIsOurs_onlyWhenItsAddressIsNumeric(endpoint: String, toBind: Bool, toConnect: Bool) async {
        #expect((StreamAddress(endpoint, forBinding: true) != nil) == toBind)
        #expect((StreamAddress(endpoint, forBinding: false) != nil) == toConnect)
        #expect(StreamRouter.serves(endpoint) == toBind)
    }
}

private func option(_ descriptor: Int32, _ level: Int32, _ name: Int32) -> Int32 {
    var value: Int32 = -1
    var length = socklen_t(MemoryLayout<Int32>.size)
    return getsockopt(descriptor, level, name, &value, &length) == 0 ? value : -1
}

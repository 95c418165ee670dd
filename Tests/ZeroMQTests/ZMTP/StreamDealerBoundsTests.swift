import Foundation
import TestSupport
import TestTraits
import Testing
@testable import ZeroMQ
#if canImport(Glibc)
import Glibc
#endif

/// The worker library's end holds the same bound as the gateway's: a peer
/// that sends without reading what comes back is not read while more than
/// `maxOutput` waits for it, so it cannot grow the worker without bound.
/// Over ipc:// and tcp:// alike.
@Suite("StreamDealer bounds", .ownThread, .timeLimit(.minutes(5)))
struct StreamDealerBoundsTests {
    @Test(arguments: Carrier.allCases)
    func test_aPeerThatDoesNotRead_isNotRead_untilHalfOfWhatWaitsIsWritten(_ carrier: Carrier) async throws {
        try await onOwnThread {
            let limits = ZMTP.Limits(maxFrameSize: 1 << 20, maxFrames: 8, maxOutput: 256 << 10)
            // The peer's side of the handshake; then it never reads.
            try withHandshakenPeer(carrier, name: "peer", { StreamDealer(endpoint: $0, identity: nil, limits: limits) }) { dealer, peer in
                _ = try dealer.wait(orFileDescriptor: -1, timeout: .milliseconds(50))
                #expect(dealer.readiness().events & Int16(POLLIN) != 0, "read while little waits")
                let body = Frame([UInt8](repeating: 1, count: 32 << 10))
                // Until the socket's buffers are full and 256 KiB more waits: 2 MiB
                // does it on ipc://; tcp:// buffers grow to a few MiB.
                var sent = 0
                while dealer.readiness().events & Int16(POLLIN) != 0, sent < 64 << 20 {
                    dealer.send([body])
                    sent += body.count
                }
                #expect(dealer.readiness().events & Int16(POLLIN) == 0, "not read while more than 256 KiB waits (\(sent) bytes sent)")
                // The peer reads it all: the dealer reads again.
                var buffer = [UInt8](repeating: 0, count: 1 << 16)
                let deadline = ContinuousClock.now + .seconds(5)
                while dealer.readiness().events & Int16(POLLIN) == 0, ContinuousClock.now < deadline {
                    _ = recv(peer, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                    _ = try dealer.wait(orFileDescriptor: -1, timeout: .milliseconds(1))
                }
                #expect(dealer.readiness().events & Int16(POLLIN) != 0, "read again once what waited is written")
            }
        }
    }

    @Test(arguments: Carrier.allCases)
    func test_aPeerThatNeverFinishesTheHandshake_isDroppedAfterItsTimeout(_ carrier: Carrier) async throws {
        try await onOwnThread {
            try withDirectory { directory in
                let listener = try StreamListener(endpoint: carrier.endpoint(in: directory, name: "silent"))
                defer { listener.close() }
                let dealer = StreamDealer(
                    endpoint: listener.endpoint, identity: nil,
                    limits: ZMTP.Limits(maxFrameSize: 1 << 20, maxFrames: 8, handshakeTimeout: .milliseconds(200)))
                let deadline = ContinuousClock.now + .seconds(3)
                var problems: [PeerProblem] = []
                while problems.isEmpty, ContinuousClock.now < deadline {
                    _ = try dealer.wait(orFileDescriptor: -1, timeout: .milliseconds(50))
                    problems = dealer.takeProblems()
                }
                #expect(problems.first?.detail.contains("no ZMTP handshake within") == true, "\(problems)")
            }
        }
    }
}

/// A dealer (`make`, given the endpoint) connected to a listener on
/// `carrier`, whose end is accepted and has said the ROUTER's side of the
/// handshake (greeting and READY): `body` gets the dealer and that end's
/// descriptor, which is closed after it, with the listener.
@available(*, noasync, message: "blocks its thread: call it on a thread of its own")
func withHandshakenPeer(
    _ carrier: Carrier, name: String, _ make: (String) -> StreamDealer, _ body: (StreamDealer, Int32) throws -> Void
) throws {
    try withDirectory { directory in
        let listener = try StreamListener(endpoint: carrier.endpoint(in: directory, name: name))
        defer { listener.close() }
        let dealer = make(listener.endpoint)
        guard let peer = acceptWithin(listener) else {
            Issue.record("the dealer connected")
            return
        }
        defer { close(peer) }
        let opening = ZMTP.greeting + ZMTPEncoder.ready(socketType: "ROUTER", identity: nil)
        #expect(write(peer, opening, opening.count) == opening.count)
        try body(dealer, peer)
    }
}

/// The connection waiting on `listener`, within a second (a tcp://
/// connection may still be under way when the dealer's init returns).
@available(*, noasync, message: "blocks its thread: call it on a thread of its own")
func acceptWithin(_ listener: StreamListener) -> Int32? {
    let deadline = ContinuousClock.now + .seconds(1)
    while ContinuousClock.now < deadline {
        if case .connection(let peer) = listener.accept() { return peer }
        usleep(1000)
    }
    return nil
}

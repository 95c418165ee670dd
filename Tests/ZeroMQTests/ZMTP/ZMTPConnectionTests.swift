import TestSupport
import TestTraits
import Testing
@testable import ZeroMQ
#if canImport(Glibc)
import Glibc
#endif

/// A connection over a socket pair, its clock given by the test.
@Suite("ZMTP connection", .ownThread, .timeLimit(.minutes(5)))
struct ZMTPConnectionTests {
    final class Admitting: ZMTPReceiver {
        var messages = 0
        func ready(_ connection: ZMTPConnection, metadata: UnsafeRawBufferPointer) -> ZMTPSession.Admission { .admitted(prefix: nil) }
        func admits(_ connection: ZMTPConnection, clientKey: [UInt8]) -> Bool { true }
        func message(_ connection: ZMTPConnection, _ frames: [Frame]) { messages += 1 }
        func report(_ connection: ZMTPConnection, _ problem: PeerProblem) {}
        func closed(_ connection: ZMTPConnection) {}
    }

    /// Reads of a steady stream mostly end inside a message. Each message
    /// still arrived whole at once, so the clock of the one left unfinished
    /// starts with the read that completed the one before: a busy peer is
    /// never taken for one that stalled.
    @Test func test_aMessageClock_startsAgain_withEachReadThatCompletesOne() async throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[1]) }
        _ = fcntl(pair[0], F_SETFL, fcntl(pair[0], F_GETFL) | O_NONBLOCK)
        let connection = ZMTPConnection(
            descriptor: pair[0], socketType: "ROUTER", peerTypes: ZMTP.routerPeers,
            limits: ZMTP.Limits(maxFrameSize: 1000, maxFrames: 4))
        let receiver = Admitting()
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        defer { scratch.deallocate() }
        let message = ZMTPBytes.message([Array(repeating: 1, count: 100)])
        func send(_ bytes: [UInt8]) { #expect(write(pair[1], bytes, bytes.count) == bytes.count) }

        send(ZMTPBytes.opening + message + message.prefix(50))
        connection.read(into: scratch, for: receiver, now: 1_000)
        #expect(receiver.messages == 1 && connection.stalledSince == 1_000)
        send(Array(message.dropFirst(50)) + message.prefix(30))
        connection.read(into: scratch, for: receiver, now: 40_000_000_000)
        #expect(receiver.messages == 2)
        #expect(connection.stalledSince == 40_000_000_000, "the unfinished message began in this read")
        send(Array(message.dropFirst(30)))
        connection.read(into: scratch, for: receiver, now: 41_000_000_000)
        #expect(receiver.messages == 3 && connection.stalledSince == nil)
    }
}

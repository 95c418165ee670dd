import Foundation
import TestSupport
import TestTraits
import Testing
@testable import ZeroMQ
#if canImport(Glibc)
import Glibc
#endif

/// A peer that sends its last message and closes at once (a worker's last
/// reply, before it exits), while the router has something to write to it.
@Suite("StreamRouter and a peer that leaves", .ownThread, .timeLimit(.minutes(2)))
struct StreamRouterDepartureTests {
    /// The write fails (the peer closed), before the router reads what
    /// came: the message is read all the same, and then the peer is gone.
    @Test func test_aMessageSentJustBeforeThePeerClosed_isReceived_thoughAWriteToItFailsFirst() async throws {
        try await onOwnThread {
            try withDirectory { directory in
                let pump = try RouterPump(ZMTP.Limits(maxFrameSize: 1 << 20, maxFrames: 8), at: "ipc://\(directory)/r.ipc")
                let raw = try #require(rawConnection(to: pump.endpoint))
                defer { close(raw) }
                let peer = Frame(Array("leaving".utf8))
                handshake(raw, identity: "leaving")
                #expect(pump.run { pump.router.owns(peer) }, "handshaken: \(pump.problems)")
                // Its last message, then the end of the connection, both ways.
                let last = ZMTPBytes.message([[], Array("reply".utf8)])
                #expect(write(raw, last, last.count) == last.count)
                shutdown(raw, Int32(SHUT_RDWR))
                // The router writes to it before it reads: the write fails.
                #expect(pump.router.send([peer, "", "a heartbeat"]))
                pump.router.flush()
                // Gone for writing: a send to it is refused, as to a peer gone, not lost.
                #expect(!pump.router.send([peer, "", "a request"]))
                #expect(pump.run { !pump.received.isEmpty }, "\(pump.problems)")
                #expect(pump.received.map { $0.map { String(decoding: $0.bytes, as: UTF8.self) } } == [["leaving", "", "reply"]])
                #expect(pump.run { !pump.router.owns(peer) }, "closed once its input ends")
            }
        }
    }

    /// The same for a peer held back (more waits for it than the router
    /// lets wait): not read while held, it is let go once it closed, and
    /// its last message is read.
    @Test func test_aPeerHeldBackThatSendsItsLastMessageAndCloses_isReadToTheEnd_andLetGo() async throws {
        try await onOwnThread {
            try withDirectory { directory in
                let limits = ZMTP.Limits(maxFrameSize: 8 << 20, maxFrames: 8, maxOutput: 64 << 10)
                let pump = try RouterPump(limits, at: "ipc://\(directory)/r.ipc")
                let raw = try #require(rawConnection(to: pump.endpoint))
                defer { close(raw) }
                let peer = Frame(Array("held".utf8))
                handshake(raw, identity: "held")
                #expect(pump.run { pump.router.owns(peer) }, "handshaken: \(pump.problems)")
                // More than its socket takes and the limit: held back, as it never reads.
                #expect(pump.router.send([peer, "", Frame([UInt8](repeating: 7, count: 4 << 20))]))
                pump.router.flush()
                #expect(pump.router.peersHeldBack == 1)
                let last = ZMTPBytes.message([[], Array("last".utf8)])
                #expect(write(raw, last, last.count) == last.count)
                shutdown(raw, Int32(SHUT_RDWR))
                #expect(pump.run { !pump.received.isEmpty }, "\(pump.problems)")
                #expect(pump.received.map { $0.map { String(decoding: $0.bytes, as: UTF8.self) } } == [["held", "", "last"]])
                #expect(pump.router.peersHeldBack == 0)
                #expect(pump.run { !pump.router.owns(peer) }, "closed once its input ends")
            }
        }
    }
}

/// Writes what a libzmq DEALER with `identity` sends first: its greeting, then READY.
private func handshake(_ raw: Int32, identity: String) {
    let bytes = ZMTPBytes.greeting + ZMTPBytes.ready(identity: Array(identity.utf8))
    #expect(write(raw, bytes, bytes.count) == bytes.count)
}

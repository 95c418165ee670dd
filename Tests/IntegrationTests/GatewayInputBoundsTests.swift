import Foundation
import Majordomo
import TestSupport
import TestTraits
import Testing
import ZeroMQ

/// What a peer may make the real gateway hold of its input: a message
/// bounded in total, not by 64 times the frame limit, and one left half
/// sent closed after the message timeout.
///
/// On a thread of its own: a peer's push waits 2 ms between writes the
/// gateway has no room for, and on the cooperative pool, busy with the
/// rest of a full run, those waits stretched until the whole 4 MiB took
/// longer than the message timeout (30 s from a message's first byte), so
/// the timeout closed the connection before the size limit could.
@Suite("Gateway input bounds", .serialized, .ownThread, .timeLimit(.minutes(5)))
struct GatewayInputBoundsTests {
    @Test func test_aMessageThatNeverEnds_costsItsSenderTheConnection_atTheMessageLimit() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(["--max-frame-size", "\(4 << 20)"], context: context)
        let pid = try #require(harness.process("gateway")?.processIdentifier)
        let peer = try StreamPeer(endpoint: harness.gatewayEndpoint)
        try peer.open(identity: "endless")
        // Frames of 1 MiB, each with MORE set: before, 64 of them (at the frame
        // limit, up to 1 GB) were held before anything was refused.
        var frame: [UInt8] = []
        ZMTPBytesForTests.appendHeader(to: &frame, size: 1 << 20, more: true)
        frame += [UInt8](repeating: 5, count: 1 << 20)
        var largest = 0
        // Patient while the gateway does not read (a loaded machine can hold
        // its thread for seconds; a stall of 3 s once ended the push short of
        // the limit, and the message timeout closed it instead), but less than
        // that timeout (30 s), so only the size limit can end it in time.
        let (written, _) = await peer.push(frame, upTo: 64 * frame.count, stallAfter: .seconds(20)) {
            largest = max(largest, ProcStat.residentBytes(pid) ?? 0)
        }
        #expect(written < 8 * frame.count, "the connection closed past 4 MiB + 64 KiB, not after \(written) bytes")
        #expect(await peer.closedByPeer(within: .seconds(10)))
        #expect(largest <= 64 << 20, "gateway resident memory \(largest) bytes")
        #expect(await eventually { harness.log("gateway").contains("message over the size limit") }, "\(harness.log("gateway"))")
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context, timeout: .seconds(3), retries: 0)
        #expect(try await client.mmiService("mmi.service") != nil, "the gateway still serves")
    }

    @Test func test_aFrameLeftHalfSent_isClosedAfterTheMessageTimeout() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(["--message-timeout", "1s"], context: context)
        let peer = try StreamPeer(endpoint: harness.gatewayEndpoint)
        try peer.open(identity: "stalled")
        var half: [UInt8] = []
        ZMTPBytesForTests.appendHeader(to: &half, size: 1000, more: false)
        half += [UInt8](repeating: 1, count: 10)
        #expect(await peer.push(half, upTo: half.count, stallAfter: .seconds(1)).written == half.count)
        #expect(await !peer.closedByPeer(within: .milliseconds(300)), "not at once")
        #expect(await peer.closedByPeer(within: .seconds(4)), "closed once the message timeout passed")
        #expect(await eventually { harness.log("gateway").contains("message left unfinished") }, "\(harness.log("gateway"))")
    }

    @Test func test_aMessageWithMOREAndNoEnd_isClosedAfterTheMessageTimeout() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(["--message-timeout", "1s"], context: context)
        let peer = try StreamPeer(endpoint: harness.gatewayEndpoint)
        try peer.open(identity: "more")
        let first = StreamPeer.message(["", MDP.clientHeader])
        // The same two frames, the last one's MORE set: the message goes on.
        var open = first
        open[first.count - 2 - MDP.clientHeader.count] |= 0x01
        #expect(await peer.push(open, upTo: open.count, stallAfter: .seconds(1)).written == open.count)
        #expect(await peer.closedByPeer(within: .seconds(4)))
        #expect(await eventually { harness.log("gateway").contains("message left unfinished") }, "\(harness.log("gateway"))")
    }

    /// A worker that sends REPLYs for a client it guessed, never reading:
    /// each REPLY made the gateway send it the client's next REQUEST (before,
    /// 197 MB for 400 requests of 256 KiB). Now the gateway stops reading it
    /// once a bounded amount waits for it.
    @Test func test_aWorkerThatRepliesWithoutReading_isHeldBack_andItsRequestsWaitInTheQueue() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(context: context)
        let pid = try #require(harness.process("gateway")?.processIdentifier)
        let worker = try StreamPeer(endpoint: harness.gatewayEndpoint)
        try worker.open(identity: "sink-worker")
        let ready = StreamPeer.message(["", MDP.workerHeader, MDP.Command.ready.frame, "sink"])
        #expect(await worker.push(ready, upTo: ready.count, stallAfter: .seconds(1)).written == ready.count)
        let probe = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context, timeout: .milliseconds(500), retries: 0)
        #expect(await eventually { ((try? await probe.workers(of: "sink")) ?? 0) == 1 })
        let client = try Socket(context, .dealer)
        try client.set(.routingID, Array("guessed".utf8))
        try client.connect(harness.gatewayEndpoint)
        defer { client.close() }
        let body = Frame([UInt8](repeating: 3, count: 256 << 10))
        for _ in 0..<120 { try client.send(["", MDP.clientHeader, "sink", body]) }
        // 30 MB through the client's libzmq socket: beside a full run that took over 10 s once.
        var seen = "nothing yet"
        let queued = await eventually(within: .seconds(40)) {
            do {
                let queued = try await probe.status().services.first { $0.name == "sink" }?.queued ?? 0
                seen = "\(queued) queued"
                return queued >= 118
            } catch {
                seen = "\(error)"
                return false
            }
        }
        #expect(queued, "last seen: \(seen); \(harness.log("gateway").suffix(1500))")
        let before = try #require(ProcStat.residentBytes(pid))
        let replies = StreamPeer.message(["", MDP.workerHeader, MDP.Command.reply.frame, "guessed", "", "r"]).repeated(100)
        let (_, stalled) = await worker.push(replies, upTo: 64 << 20, stallAfter: .seconds(2))
        let after = try #require(ProcStat.residentBytes(pid))
        #expect(stalled, "the gateway stopped reading the worker")
        #expect(after - before < 12 << 20, "grew from \(before) to \(after) bytes; 120 requests of 256 KiB are 30 MB")
        #expect(try await probe.mmiService("mmi.service") != nil, "the gateway still serves")
    }
}

/// Frame headers written by hand, for bytes the encoder would not make.
enum ZMTPBytesForTests {
    static func appendHeader(to bytes: inout [UInt8], size: Int, more: Bool) {
        if size <= 255 {
            bytes += [more ? 0x01 : 0x00, UInt8(size)]
        } else {
            bytes.append(more ? 0x03 : 0x02)
            bytes += withUnsafeBytes(of: UInt64(size).bigEndian, Array.init)
        }
    }
}

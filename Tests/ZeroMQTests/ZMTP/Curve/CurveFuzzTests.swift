import TestSupport
import TestTraits
import Testing
@testable import ZeroMQ

/// A fixed-seed mutation fuzz of CURVE: a client's valid handshake and
/// traffic, mutated (40,000 inputs from the greeting on, 60,000 of the
/// traffic alone after a good handshake, 30,000 of whole-message boxes
/// between our own ends), fed to a server whole and in random pieces. Whatever the bytes: nothing crashes, the split changes
/// nothing, no key but the client's is ever asked about, and every frame
/// delivered is one the client sent, in its order, none twice (a box
/// cannot be forged, nor its nonce replayed).
@Suite("CURVE fuzz", .ownThread, .timeLimit(.minutes(5)))
struct CurveFuzzTests {
    static let fixture = CurveFixture()
    static let handshakeInputs = 40_000
    static let trafficInputs = 60_000
    static let wholeInputs = 30_000

    /// What the client sends after its handshake: frames, some of several
    /// frames, one a boxed PING.
    static let frames: [[UInt8]] = (0..<6).map { index in [UInt8](repeating: UInt8(index + 1), count: 1 + index * 37) }

    static var traffic: [UInt8] {
        let short = fixture.serverShort, secret = fixture.clientShortSecret
        var bytes: [UInt8] = []
        var nonce: UInt64 = 3
        for (index, frame) in frames.enumerated() {
            bytes += RawCurve.message(frame, more: index % 3 == 0, nonce: nonce, fromClient: true, to: short, from: secret)
            nonce += 1
            if index == 2 {
                bytes += RawCurve.message(
                    [4] + Array("PING".utf8) + [0, 1], command: true, nonce: nonce, fromClient: true, to: short, from: secret)
                nonce += 1
            }
        }
        return bytes
    }

    static var handshake: [UInt8] {
        fixture.clientOpening + fixture.initiate(metadata: ZMTPEncoder.metadata(socketType: "DEALER", identity: nil))
    }

    @Test func test_fortyThousandMutatedHandshakes_keepEveryRule() async {
        var random = SplitMix64(seed: 0xC0_12E5_2026_1128)
        let valid = Self.handshake + Self.traffic
        for _ in 0..<Self.handshakeInputs {
            var bytes = valid
            ZMTPFuzzTests.mutate(&bytes, &random)
            check(bytes, from: { Self.fixture.serverSession() }, splitSeed: random.next())
        }
    }

    @Test func test_sixtyThousandMutatedTrafficStreams_keepEveryRule() async {
        var server = Self.fixture.serverSession()
        var delegate = RecordingDelegate(prefix: "p")
        server.feed(Self.handshake, to: &delegate)
        #expect(server.stage == .traffic)
        server.output.removeFirst(server.output.count)
        var random = SplitMix64(seed: 0x7EAF_F1C0_2026_1128)
        let valid = Self.traffic
        for _ in 0..<Self.trafficInputs {
            var bytes = valid
            ZMTPFuzzTests.mutate(&bytes, &random)
            // A copy of the session in traffic: the same keys and nonces each time.
            check(bytes, from: { server }, splitSeed: random.next())
        }
    }

    /// Whole messages in one box each, as our own client sends them, the
    /// frames the same as `frames` (two messages of three).
    static var wholeTraffic: [UInt8] {
        let short = fixture.serverShort, secret = fixture.clientShortSecret
        return RawCurve.wholeMessage(Array(frames[0..<3]), nonce: 3, fromClient: true, to: short, from: secret)
            + RawCurve.wholeMessage(Array(frames[3..<6]), nonce: 4, fromClient: true, to: short, from: secret)
    }

    @Test func test_thirtyThousandMutatedWholeMessageStreams_keepEveryRule() async {
        var server = Self.fixture.serverSession()
        var delegate = RecordingDelegate(prefix: "p")
        server.feed(
            Self.fixture.clientOpening + Self.fixture.initiate(metadata: CurveFixture.ourMetadata(socketType: "DEALER", identity: nil)),
            to: &delegate)
        #expect(server.stage == .traffic && server.wholeMessages)
        server.output.removeFirst(server.output.count)
        var check = server
        check.feed(Self.wholeTraffic, to: &delegate)
        #expect(delegate.messages.map { $0.dropFirst().map(\.bytes) } == [Array(Self.frames[0..<3]), Array(Self.frames[3..<6])])
        var random = SplitMix64(seed: 0x3401_E5B0_2026_1128)
        let valid = Self.wholeTraffic
        for _ in 0..<Self.wholeInputs {
            var bytes = valid
            ZMTPFuzzTests.mutate(&bytes, &random)
            self.check(bytes, from: { server }, splitSeed: random.next())
        }
    }

    /// `start` makes each session anew: a server's generator hands out its
    /// script once.
    private func check(_ bytes: [UInt8], from start: () -> ZMTPSession, splitSeed: UInt64) {
        var whole = start()
        var wholeDelegate = RecordingDelegate(prefix: "p")
        whole.feed(bytes, to: &wholeDelegate)
        var split = start()
        var splitDelegate = RecordingDelegate(prefix: "p")
        var random = SplitMix64(seed: splitSeed)
        var at = 0
        while at < bytes.count, split.stage != .ended {
            let end = min(bytes.count, at + 1 + Int(random.next() % 211))
            bytes[at..<end].withUnsafeBytes { split.receive($0, delegate: &splitDelegate) }
            at = end
        }
        #expect(splitDelegate.messages == wholeDelegate.messages, "split or whole, the same messages: \(bytes)")
        #expect(split.failure == whole.failure, "\(bytes)")
        #expect(wholeDelegate.readies <= 1)
        #expect(wholeDelegate.askedKeys.allSatisfy { $0 == Self.fixture.client.publicKey }, "\(bytes)")
        // Every frame delivered is one sent, in order, none twice.
        var next = 0
        for frame in wholeDelegate.messages.flatMap({ $0.dropFirst() }) {
            guard let found = Self.frames[next...].firstIndex(of: frame.bytes) else {
                Issue.record("a frame the client did not send, or sent before: \(frame.bytes) from \(bytes)")
                return
            }
            next = found + 1
        }
    }
}

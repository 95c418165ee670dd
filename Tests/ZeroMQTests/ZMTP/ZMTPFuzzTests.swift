import TestSupport
import TestTraits
import Testing
@testable import ZeroMQ

/// A fixed-seed mutation fuzz of the decoder and session: valid byte
/// streams, mutated, fed whole and in random pieces. Whatever the bytes,
/// nothing crashes, no limit is passed, nothing is delivered after the end,
/// and how the bytes were split changes nothing. An input that ever finds a
/// bug goes into `regressions`, so it is tried on every run.
@Suite("ZMTP decoder fuzz", .ownThread, .timeLimit(.minutes(5)))
struct ZMTPFuzzTests {
    static let limits = ZMTP.Limits(maxFrameSize: 1000, maxFrames: 4, maxMessageSize: 1500)
    static let inputs = 100_000

    /// Edge cases written by hand, and every input that ever found a bug
    /// (none has yet): each stays here for good.
    static let regressions: [[UInt8]] = [
        ZMTPBytes.opening + ZMTPBytes.header(size: 1, flags: ZMTP.more) + [1] + ZMTPBytes.command("PING", [0, 0]),
        ZMTPBytes.opening + [ZMTP.long, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
        ZMTPBytes.greeting + [ZMTP.command | ZMTP.long, 0x80, 0, 0, 0, 0, 0, 0, 0],
    ]

    @Test func test_regressionInputs_keepEveryRule() async {
        for input in Self.regressions { check(input, splitSeed: 1) }
    }

    @Test func test_oneHundredThousandMutatedSessions_keepEveryRule() async {
        var random = SplitMix64(seed: 0x5EED_2026_1124)
        for _ in 0..<Self.inputs {
            var bytes = Self.validStream(&random)
            Self.mutate(&bytes, &random)
            check(bytes, splitSeed: random.next())
        }
    }

    private func check(_ bytes: [UInt8], splitSeed: UInt64) {
        var whole = ZMTPSession.router(Self.limits)
        var wholeDelegate = RecordingDelegate(prefix: "p")
        whole.feed(bytes, to: &wholeDelegate)
        var split = ZMTPSession.router(Self.limits)
        var splitDelegate = RecordingDelegate(prefix: "p")
        var random = SplitMix64(seed: splitSeed)
        var at = 0
        while at < bytes.count, split.stage != .ended {
            let end = min(bytes.count, at + 1 + Int(random.next() % 97))
            let before = splitDelegate.messages.count
            bytes[at..<end].withUnsafeBytes { split.receive($0, delegate: &splitDelegate) }
            if split.stage == .ended { #expect(splitDelegate.messages.count >= before) }
            at = end
        }
        #expect(splitDelegate.messages == wholeDelegate.messages, "split or whole, the same messages: \(bytes)")
        #expect(split.failure == whole.failure, "\(bytes)")
        #expect(wholeDelegate.readies <= 1)
        for message in wholeDelegate.messages {
            #expect(message.count <= Self.limits.maxFrames + 1, "\(bytes)")
            #expect(message.dropFirst().allSatisfy { $0.count <= Self.limits.maxFrameSize }, "\(bytes)")
            #expect(message.dropFirst().reduce(0) { $0 + $1.count } <= Self.limits.maxMessageSize, "\(bytes)")
        }
        if whole.stage != .traffic { #expect(wholeDelegate.messages.isEmpty || whole.stage == .ended) }
    }

    /// Greeting, READY, then messages and commands a peer may send.
    static func validStream(_ random: inout SplitMix64) -> [UInt8] {
        var bytes = ZMTPBytes.opening
        for _ in 0..<(1 + random.next() % 5) {
            switch random.next() % 4 {
            case 0:
                bytes += ZMTPBytes.command("PING", [0, 1] + [UInt8](repeating: 7, count: Int(random.next() % 20)))
            default:
                let frames = (0..<(1 + random.next() % 5)).map { _ in
                    // Mostly short, some past the long-header boundary or the limits.
                    let size = random.next() % 8 == 0 ? Int(random.next() % 1200) : Int(random.next() % 40)
                    return [UInt8](repeating: UInt8(truncatingIfNeeded: size), count: size)
                }
                bytes += ZMTPBytes.message(frames)
            }
        }
        return bytes
    }

    /// One to four changes: a byte flipped or set to an edge value, bytes
    /// inserted, removed or repeated, the end cut off.
    static func mutate(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        for _ in 0..<(1 + random.next() % 4) where !bytes.isEmpty {
            let at = Int(random.next() % UInt64(bytes.count))
            switch random.next() % 7 {
            case 0: bytes[at] ^= UInt8(1 << (random.next() % 8))
            case 1: bytes[at] = [0x00, 0x01, 0x02, 0x04, 0x7F, 0x80, 0xFF][Int(random.next() % 7)]
            case 2: bytes.insert(contentsOf: (0..<(1 + random.next() % 8)).map { _ in UInt8(truncatingIfNeeded: random.next()) }, at: at)
            case 3: bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(random.next() % 16)))
            case 4: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 1 + Int(random.next() % 64))], at: at)
            case 5: bytes.removeSubrange(at...)
            default: bytes[at] = UInt8(truncatingIfNeeded: random.next())
            }
        }
    }
}

/// A small, fast generator with a fixed sequence for a seed (SplitMix64).
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

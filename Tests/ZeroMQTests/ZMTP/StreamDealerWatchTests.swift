import Foundation
import TestSupport
import TestTraits
import Testing
@testable import ZeroMQ
#if canImport(Glibc)
import Glibc
#endif

/// What a client learns of its connection from our own DEALER, as a libzmq
/// socket's monitor and heartbeat options tell it: connected, the
/// handshake's outcome, disconnected; a PING every interval; and a broker
/// that stops answering taken as gone after the timeout, while one that
/// answers is kept. Over ipc:// and tcp:// alike.
@Suite("StreamDealer heartbeats and events", .ownThread, .timeLimit(.minutes(2)))
struct StreamDealerWatchTests {
    static let heartbeat = StreamDealer.Heartbeat(interval: .milliseconds(50), timeout: .milliseconds(200))

    @Test(arguments: Carrier.allCases)
    func test_aBrokerThatFallsSilent_isPinged_thenDroppedAfterTheTimeout_andTheEventsSaySo(_ carrier: Carrier) async throws {
        try await onOwnThread {
            let make = { (endpoint: String) in
                StreamDealer(
                    endpoint: endpoint, identity: nil, limits: ZMTP.Limits(maxFrameSize: 1 << 20, maxFrames: 8),
                    heartbeat: Self.heartbeat, watching: true)
            }
            try withHandshakenPeer(carrier, name: "silent", make) { dealer, peer in
                var events: [HandshakeWatch.Monitored] = []
                var problems: [PeerProblem] = []
                let started = ContinuousClock.now
                while !events.contains(.disconnected), ContinuousClock.now < started + .seconds(5) {
                    _ = try dealer.wait(orFileDescriptor: -1, timeout: .milliseconds(20))
                    events += dealer.takeEvents()
                    problems += dealer.takeProblems()
                }
                #expect(events == [.connected, .outcome(.succeeded), .disconnected], "\(events)")
                #expect(problems.map(\.kind) == [.silent], "\(problems)")
                // What the dealer sent meanwhile: its greeting, READY, then PINGs.
                var sent = [UInt8](repeating: 0, count: 1 << 16)
                let count = recv(peer, &sent, sent.count, Int32(MSG_DONTWAIT))
                let ping: [UInt8] = [ZMTP.command, 7, 4] + Array("PING".utf8) + [0, 0]
                let pings = count > 0 ? occurrences(of: ping, in: Array(sent[..<count])) : 0
                #expect(pings >= 2, "PINGs every 50 ms until 200 ms of silence after the first: \(pings)")
            }
        }
    }

    @Test(arguments: Carrier.allCases)
    func test_aBrokerThatAnswersPings_staysConnected_pastManyTimeouts(_ carrier: Carrier) async throws {
        try await onOwnThread {
            try withDirectory { directory in
                // libzmq's ROUTER answers each PING with a PONG, and nothing else.
                let router = try Socket(try Context(), .router)
                defer { router.close() }
                try router.bind(carrier == .ipc ? "ipc://\(directory)/router.ipc" : "tcp://127.0.0.1:*")
                let dealer = StreamDealer(
                    endpoint: try #require(router.lastEndpoint), identity: nil, limits: ZMTP.Limits(maxFrameSize: 1 << 20, maxFrames: 8),
                    heartbeat: Self.heartbeat, watching: true)
                var events: [HandshakeWatch.Monitored] = []
                let started = ContinuousClock.now
                while ContinuousClock.now < started + .seconds(1) {
                    _ = try dealer.wait(orFileDescriptor: -1, timeout: .milliseconds(20))
                    events += dealer.takeEvents()
                }
                #expect(events == [.connected, .outcome(.succeeded)], "five timeouts' worth of PINGs, each answered: \(events)")
                #expect(dealer.takeProblems().isEmpty)
                dealer.send(["still", "here"])
                let arrived = try receiveHere(router)
                #expect(arrived?.dropFirst().map { String(decoding: $0.bytes, as: UTF8.self) } == ["still", "here"])
            }
        }
    }

    /// A broker that answers and exits at once (a gateway's "interrupted"
    /// at the end of its shutdown grace), to a client whose thread runs
    /// late: a PING is due before the answer is read, and writing it fails.
    /// The answer is read all the same, not dropped with the connection.
    @Test func test_anAnswerSentJustBeforeThePeerClosed_isRead_thoughAHeartbeatIsWrittenFirst() async throws {
        try await onOwnThread {
            let make = { (endpoint: String) in
                StreamDealer(
                    endpoint: endpoint, identity: nil, limits: ZMTP.Limits(maxFrameSize: 1 << 20, maxFrames: 8),
                    heartbeat: Self.heartbeat, watching: true)
            }
            try withHandshakenPeer(.ipc, name: "answers-then-exits", make) { dealer, peer in
                var events: [HandshakeWatch.Monitored] = []
                let started = ContinuousClock.now
                while !events.contains(.outcome(.succeeded)), ContinuousClock.now < started + .seconds(5) {
                    _ = try dealer.wait(orFileDescriptor: -1, timeout: .milliseconds(10))
                    events += dealer.takeEvents()
                }
                #expect(events == [.connected, .outcome(.succeeded)], "\(events)")
                let answer: [UInt8] = [0, 6] + Array("answer".utf8)
                #expect(write(peer, answer, answer.count) == answer.count)
                shutdown(peer, Int32(SHUT_RDWR))
                Thread.sleep(forTimeInterval: 0.2)  // on a thread of its own: the dealer's runs late, past a PING's time
                var received: [Frame]?
                while received == nil, !events.contains(.disconnected), ContinuousClock.now < started + .seconds(10) {
                    _ = try dealer.wait(orFileDescriptor: -1, timeout: .milliseconds(10))
                    events += dealer.takeEvents()
                    received = dealer.receive()
                }
                #expect(received?.map { String(decoding: $0.bytes, as: UTF8.self) } == ["answer"], "\(events)")
            }
        }
    }

    @Test func test_aDealerNotWatching_keepsNoEvents() async throws {
        try await onOwnThread {
            try withDirectory { directory in
                let router = try Socket(try Context(), .router)
                defer { router.close() }
                try router.bind("ipc://\(directory)/router.ipc")
                let dealer = StreamDealer(
                    endpoint: try #require(router.lastEndpoint), identity: nil, limits: ZMTP.Limits(maxFrameSize: 1 << 20, maxFrames: 8))
                dealer.send(["hello"])
                var arrived: [Frame]?
                let started = ContinuousClock.now
                while arrived == nil, ContinuousClock.now < started + .seconds(5) {
                    _ = try dealer.wait(orFileDescriptor: -1, timeout: .milliseconds(20))
                    arrived = try router.receive(wait: false)
                }
                #expect(arrived != nil, "connected and handshaken")
                #expect(dealer.takeEvents().isEmpty)
            }
        }
    }
}

private func occurrences(of needle: [UInt8], in haystack: [UInt8]) -> Int {
    guard haystack.count >= needle.count else { return 0 }
    return (0...(haystack.count - needle.count)).filter { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }.count
}

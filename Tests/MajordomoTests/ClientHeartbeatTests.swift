import Foundation
import Logging
@testable import Majordomo
import Synchronization
import SystemSupport
import TestSupport
import TestTraits
import Testing
@testable import ZeroMQ
#if canImport(Glibc)
import Glibc
#endif

/// The client speaks our own ZMTP to its brokers (ipc:// and numeric
/// tcp://), with ZMTP heartbeats as libzmq's DEALER had them: a broker that
/// finished its handshake and then fell silent (a stopped process, a cut
/// link) is left for the next one when its PINGs go unanswered, long
/// before the request's own timeout would have said anything.
@Suite("Client heartbeats on our own ZMTP", .serialized, .ownThread, .timeLimit(.minutes(2)))
struct ClientHeartbeatTests {
    @Test(arguments: ["ipc", "tcp"])
    func test_aBrokerThatHandshakesThenFallsSilent_isLeftForTheNext_beforeTheRequestTimesOut(_ carrier: String) async throws {
        try await withDirectory { directory in
            let silent = try SilentBroker(endpoint: carrier == "tcp" ? "tcp://127.0.0.1:*" : "ipc://\(directory)/silent.ipc")
            defer { silent.stop() }
            let context = try Context()
            var options = Broker.Options(endpoints: [carrier == "tcp" ? "tcp://127.0.0.1:*" : "ipc://\(directory)/b.ipc"])
            options.configuration.heartbeatInterval = .milliseconds(100)
            options.configuration.shutdownGrace = .zero
            let broker = Broker(options: options, replies: PlainReplies(), context: context, logger: quiet)
            let endpoint = try await broker.start()[0]
            let worker = MajordomoWorker(endpoint: endpoint, service: "echo", configuration: workerConfiguration(), context: context, logger: quiet)
            let serving = Task { try await worker.run { $0 } }
            // The worker is ready before the test begins: beside a full run it
            // once registered 11 s late, and the broker refused the request
            // meanwhile (no worker for 5 s) with an answer the echo's
            // correlator cannot match.
            let direct = try patientClient(endpoint, context: context, correlationID: echoCorrelator)
            #expect(try await direct.request(service: "echo", body: ["ready"], correlationID: "ready").first?.string == "ready")
            direct.close()
            var configuration = MajordomoClient.Configuration()
            // One attempt, which would end in a timeout after 30 s: only the
            // heartbeats can move the request on (a second of silence after
            // a PING: a shorter one was crossed, beside a full run, by a
            // broker that was there). The silent broker finishes
            // its handshake, so the connection is up and `connectWait` has
            // nothing to say either.
            configuration.timeout = .seconds(30)
            configuration.retries = 0
            configuration.heartbeatInterval = .milliseconds(100)
            configuration.heartbeatTimeout = .seconds(1)
            let client = try MajordomoClient(
                endpoints: [silent.endpoint, endpoint], configuration: configuration, context: context, logger: quiet,
                correlationID: echoCorrelator)
            let reply = try await client.request(service: "echo", body: ["hello"], correlationID: "hello")
            #expect(reply.first?.string == "hello")
            #expect(silent.handshakes >= 1, "the request went to the silent broker first")
            #expect(client.endpoint == endpoint)
            client.close()
            worker.stop()
            try await serving.value
            broker.stop()
            await broker.waitUntilStopped()
        }
    }
}

/// A broker that accepts, answers the ZMTP handshake (NULL, as a ROUTER),
/// and then never sends another byte: what a client sees of a stopped
/// process or a cut link.
private final class SilentBroker: Sendable {
    let endpoint: String
    private let listener: StreamListener
    private let state = Mutex((handshakes: 0, peers: [Int32](), stopped: false))

    init(endpoint: String) throws {
        listener = try StreamListener(endpoint: endpoint)
        self.endpoint = listener.endpoint
        startThread(named: "silent-broker") { [self] in serve() }
    }

    var handshakes: Int { state.withLock { $0.handshakes } }

    /// The thread closes every connection and the listener as it ends.
    func stop() { state.withLock { $0.stopped = true } }

    @available(*, noasync, message: "blocks its thread: it runs on a thread of its own")
    private func serve() {
        let opening = ZMTP.greeting + ZMTPEncoder.ready(socketType: "ROUTER", identity: nil)
        while !state.withLock({ $0.stopped }) {
            guard case .connection(let peer) = listener.accept() else {
                usleep(1000)
                continue
            }
            // A connection may be closed already (MajordomoClient's init
            // checks each endpoint with a socket it closes at once): no SIGPIPE.
            let written = send(peer, opening, opening.count, Int32(MSG_NOSIGNAL))
            state.withLock { state in
                state.peers.append(peer)
                if written == opening.count { state.handshakes += 1 }
            }
        }
        for peer in state.withLock({ $0.peers }) { close(peer) }
        listener.close()
    }
}

import Foundation
import Logging
@testable import Majordomo
import Testing
import ZeroMQ

/// A client whose connection the server refuses: every request is answered
/// by a timeout, and the refusal is on record, never a hang.
@Suite("Client refused by a CURVE server", .serialized)
struct ClientRefusedTests {
    @Test func test_aRequestSentAfterTheHandshakeFailed_timesOut_andTheReasonIsKnown() async throws {
        try #require(Curve.isAvailable)
        let server = try Socket(try Context(security: Security(keys: try Curve.generateKeyPair())), .router)
        try server.bind("tcp://127.0.0.1:*")
        let endpoint = try #require(server.lastEndpoint)
        var configuration = MajordomoClient.Configuration()
        configuration.timeout = .milliseconds(300)
        configuration.retries = 1
        let client = try MajordomoClient(
            endpoint: endpoint, configuration: configuration, context: try Context(),
            logger: Logger(label: "test"), correlationID: { _ in nil })
        // Long enough for the handshake to fail and the connection to go
        // down: a send now finds no connection to queue on.
        try await Task.sleep(for: .milliseconds(500))
        let failure = client.handshakeFailure
        #expect(failure == .mechanismMismatch || failure == .closedDuringHandshake, "\(String(describing: failure))")
        let started = ContinuousClock.now
        for _ in 0..<3 {
            await #expect(throws: MajordomoClientError.self) {
                _ = try await client.request(service: "echo", body: ["x"], correlationID: nil)
            }
        }
        // Nominally 1.8 s (3 requests × 2 attempts × 300 ms); a hang is
        // forever. 20 s leaves room for a full parallel run on 2 cores,
        // where this once took 5.06 s.
        #expect(started.duration(to: .now) < .seconds(20), "each failed after its attempts, none hung")
        server.close()
    }
}

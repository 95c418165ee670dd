import Foundation
import Testing
import ZeroMQ

/// `POSTS_ZMTP`: our own ZMTP by default, libzmq when asked, and what
/// libzmq serves is logged, naming why; a value that is neither stops the
/// process naming the variable.
@Suite("Transport choice", .serialized, .timeLimit(.minutes(5)))
struct TransportChoiceTests {
    @Test(arguments: [false, true])
    func test_withPOSTS_ZMTPlibzmq_everythingStillAnswers_andTheLibzmqEndpointsAreLogged(tcp: Bool) async throws {
        let harness = try ProcessHarness(tcp: tcp)
        defer { harness.shutdown() }
        let context = try Context()
        let libzmq = ["POSTS_ZMTP": "libzmq"]
        try await harness.startGateway(environment: libzmq, context: context)
        try await harness.startWorker(
            "echo", "echo-worker", service: "echo", sessions: 1, ["--service", "echo"], environment: libzmq, context: context)
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context, timeout: .seconds(20), retries: 0)
        #expect(try await client.echo()["service"] == "echo")
        for name in ["gateway", "echo"] {
            let log = harness.log(name)
            #expect(log.contains("libzmq serves \(harness.gatewayEndpoint)") && log.contains("POSTS_ZMTP=libzmq"), "\(name): \(log)")
        }
    }

    @Test func test_byDefault_nothingIsLoggedAsLibzmqs_onPlaintextEndpoints() async throws {
        let harness = try ProcessHarness(tcp: true)
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(context: context)
        try await harness.startEcho("echo", context: context)
        #expect(!harness.log("gateway").contains("libzmq serves"), "\(harness.log("gateway"))")
        #expect(!harness.log("echo").contains("libzmq serves"), "\(harness.log("echo"))")
    }

    @Test func test_aValueThatIsNeither_stopsTheGateway_namingTheVariable() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let gateway = try harness.start("gateway", "gateway", environment: ["POSTS_ZMTP": "zeromq"])
        let status = await gateway.exit(within: .seconds(20))
        #expect(status != nil && status != 0, "exits non-zero")
        #expect(harness.log("gateway").contains("POSTS_ZMTP='zeromq' is neither 'own' nor 'libzmq'"), "\(harness.log("gateway"))")
    }
}

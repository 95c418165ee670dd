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

    /// CURVE over tcp:// between our ZMTP and libzmq, both ways, as real
    /// processes: a worker on libzmq through our gateway, and ours through
    /// a gateway on libzmq, each admitted by the allow-list and answering a
    /// libzmq client; a worker whose key is not on the list is refused,
    /// and says so.
    @Test(arguments: ["gateway", "worker"])
    func test_overCURVE_ourZMTPAndLibzmq_serveEachOther(onLibzmq side: String) async throws {
        let harness = try ProcessHarness(tcp: true)
        defer { harness.shutdown() }
        let keys = try await KeyRing(harness, names: ["gateway", "echo", "cli", "stranger"], allowed: ["echo", "cli"])
        let secure = ["POSTS_INSECURE": "0", "POSTS_GATEWAY_KEY": keys.publicFile("gateway")]
        let libzmq = ["POSTS_ZMTP": "libzmq"]
        let context = try Context(security: Security(keys: try keys.pair("cli"), serverKey: try keys.pair("gateway").publicKey))
        try await harness.startGateway(
            ["--curve-key", keys.secret("gateway"), "--curve-allow", keys.allow],
            environment: secure.merging(side == "gateway" ? libzmq : [:]) { $1 }, context: context)
        try await harness.startWorker(
            "echo", "echo-worker", service: "echo", sessions: 2, ["--service", "echo", "--sessions", "2", "--curve-key", keys.secret("echo")],
            environment: secure.merging(side == "worker" ? libzmq : [:]) { $1 }, context: context)
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context, timeout: .seconds(20), retries: 0)
        for _ in 0..<20 { #expect(try await client.echo()["service"] == "echo") }
        let ours = side == "gateway" ? "echo" : "gateway"
        #expect(!harness.log(ours).contains("libzmq serves"), "\(harness.log(ours))")
        #expect(harness.log(side == "gateway" ? "gateway" : "echo").contains("libzmq serves"))

        try harness.start(
            "stranger", "echo-worker", ["--service", "stranger", "--curve-key", keys.secret("stranger")],
            environment: secure.merging(side == "worker" ? libzmq : [:]) { $1 })
        let refused = await eventually { harness.log("stranger").contains("the gateway will not take this worker") }
        #expect(refused, "\(harness.log("stranger"))")
        #expect(harness.log("stranger").contains("allow-list"), "\(harness.log("stranger"))")
        #expect(try await client.workers(of: "stranger") == 0)
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

import Foundation
import Majordomo
import TestSupport
import Wire
import ZeroMQ

/// JSON-RPC over MDP through the real gateway, as the product's clients do it.
struct GatewayClient: Sendable {
    let client: MajordomoClient

    init(endpoint: String, context: Context, timeout: Duration = .seconds(3), retries: Int = 2) throws {
        var configuration = MajordomoClient.Configuration()
        configuration.timeout = timeout
        configuration.retries = retries
        client = try MajordomoClient(endpoint: endpoint, configuration: configuration, context: context) { body in
            body.first.flatMap { frame in frame.withUnsafeBytes { JSONRPC.id(in: Data($0))?.correlationKey } }
        }
    }

    /// Calls `method`; a JSON-RPC error comes back as `.failure`, transport errors throw.
    func call(service: String, method: String, params: JSONValue? = nil) async throws -> Result<JSONValue, JSONRPCError> {
        let id = JSONRPCID.string(UUID().uuidString)
        let request = try JSONRPC.encodeRequest(id: id, method: method, params: params)
        let reply = try await client.request(service: service, body: [Frame(request)], correlationID: id.correlationKey)
        let data = Data(reply.first?.bytes ?? [])
        do {
            return .success(try JSONRPC.decodeResponse(data, as: JSONValue.self))
        } catch {
            return .failure(error)
        }
    }

    func echo(_ service: String = "echo", params: JSONValue = ["n": 1]) async throws -> JSONValue {
        try await call(service: service, method: "echo", params: params).get()
    }

    func mmiService(_ name: String) async throws -> String? {
        try await client.request(service: "mmi.service", body: [Frame(name)], correlationID: nil).first?.string
    }

    func status() async throws -> GatewayStatus {
        let request = try JSONRPC.encodeRequest(id: .string("status"), method: "mmi.status", params: JSONValue?.none)
        let reply = try await client.request(service: "mmi.status", body: [Frame(request)], correlationID: "\"status\"")
        return try JSONRPC.decodeResponse(Data(reply.first?.bytes ?? []), as: GatewayStatus.self)
    }

    func workers(of service: String) async throws -> Int {
        try await status().sessions(of: service)
    }
}

extension ProcessHarness {
    /// Starts a gateway and waits until it answers.
    func startGateway(
        _ arguments: [String] = [], name: String = "gateway", wrapper: [String] = [], environment: [String: String] = [:], context: Context
    ) async throws {
        try start(name, "gateway", arguments, environment: environment, wrapper: wrapper)
        let probe = try GatewayClient(endpoint: gatewayEndpoint, context: context, timeout: .milliseconds(200), retries: 0)
        let up = await eventually { (try? await probe.mmiService("echo")) != nil }
        guard up else { throw HarnessError("gateway did not come up:\n\(log(name))") }
    }

    /// Starts an echo worker and waits until the gateway lists it; returns its pid.
    @discardableResult
    func startEcho(_ name: String, service: String = "echo", _ arguments: [String] = [], context: Context) async throws -> Int32 {
        try await startWorker(name, "echo-worker", service: service, sessions: 1, ["--service", service] + arguments, context: context)
    }

    /// Starts a worker executable and waits until the gateway lists `sessions`
    /// more sessions of `service`; returns its pid.
    @discardableResult
    func startWorker(
        _ name: String, _ executable: String, service: String, sessions: Int, _ arguments: [String],
        environment: [String: String] = [:], context: Context
    ) async throws -> Int32 {
        let client = try GatewayClient(endpoint: gatewayEndpoint, context: context, timeout: .milliseconds(500), retries: 0)
        let before = (try? await client.workers(of: service)) ?? 0
        let process = try start(name, executable, arguments, environment: environment)
        let registered = await eventually { ((try? await client.workers(of: service)) ?? 0) >= before + sessions }
        guard registered else { throw HarnessError("\(name) did not register:\n\(log(name))") }
        return process.processIdentifier
    }
}

extension JSONValue {
    var pid: Int32? { self["pid"]?.intValue.map(Int32.init) }
}

import Domain
import Foundation
import Majordomo
import Synchronization
import Wire
import ZeroMQ

/// JSON-RPC calls through the gateway, with failures turned into PostsError.
final class GatewayConnection: Sendable {
    let endpoint: String
    private let client: MajordomoClient
    private let timeout: Duration
    static let probeTimeout = Duration.seconds(2)
    /// Services `mmi.service` has confirmed to have a worker.
    private let confirmed = Mutex<Set<String>>([])

    init(endpoint: String, timeout: Duration, retries: Int) throws(PostsError) {
        self.endpoint = endpoint
        self.timeout = timeout
        var configuration = MajordomoClient.Configuration()
        configuration.timeout = timeout
        configuration.retries = retries
        do {
            client = try MajordomoClient(endpoint: endpoint, configuration: configuration, context: try Context()) { body in
                body.first.flatMap { frame in frame.withUnsafeBytes { JSONRPC.id(in: Data($0))?.correlationKey } }
            }
        } catch {
            throw .failed("cannot use gateway endpoint '\(endpoint)': \(error)")
        }
    }

    func call<Params: Encodable & Sendable, Result: Decodable>(
        _ service: String, _ method: String, _ params: Params?, as type: Result.Type
    ) async throws(PostsError) -> Result {
        try await confirm(service)
        let id = JSONRPCID.string(UUID().uuidString)
        let reply: [Frame]
        do {
            let body = try JSONRPC.encodeRequest(id: id, method: method, params: params)
            reply = try await client.request(service: service, body: [Frame(body)], correlationID: id.correlationKey)
        } catch let error as MajordomoClientError {
            switch error {
            case .timeout(_, _, let attempts, let each): throw .timeout(seconds: Double(attempts) * each.seconds)
            case .closed: throw .failed("the connection to \(endpoint) was closed before the answer came")
            }
        } catch {
            throw .failed("cannot send to \(endpoint): \(error)")
        }
        do {
            return try JSONRPC.decodeResponse(Data(reply.first?.bytes ?? []), as: Result.self)
        } catch {
            throw PostsError(error)
        }
    }

    /// Asks the gateway (8/MMI) whether `service` has a worker, once per
    /// service, so "the gateway is down" and "no worker for this service"
    /// each fail as their own error instead of waiting out a timeout. A
    /// gateway that answers "no worker" may have just restarted, its workers
    /// registering again within two heartbeats: it is asked again, until the
    /// timeout, before the answer stands.
    private func confirm(_ service: String) async throws(PostsError) {
        guard !service.hasPrefix("mmi."), !confirmed.withLock({ $0.contains(service) }) else { return }
        if IPCAccess.isDenied(endpoint) { throw .unavailable(.permissionDenied(endpoint: endpoint)) }
        let deadline = ContinuousClock.now + timeout
        while true {
            let answer: String?
            // The gateway answers this itself, at once: a short wait tells a dead
            // gateway from a slow service without waiting out a long timeout.
            let wait = min(timeout, Self.probeTimeout)
            do {
                answer = try await client.request(service: "mmi.service", body: [Frame(service)], correlationID: nil, timeout: wait).first?.string
            } catch {
                throw .unavailable(.noAnswer(endpoint: endpoint, seconds: wait.seconds))
            }
            if answer == "200" { break }
            guard ContinuousClock.now + Self.recheck < deadline else { throw .unavailable(.noWorker(service: service)) }
            try? await Task.sleep(for: Self.recheck)
        }
        confirmed.withLock { _ = $0.insert(service) }
    }

    static let recheck = Duration.milliseconds(100)
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

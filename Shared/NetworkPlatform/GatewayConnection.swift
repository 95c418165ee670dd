import Domain
import Foundation
import Majordomo
import Wire
import ZeroMQ

/// JSON-RPC calls through the gateway, with failures turned into PostsError.
final class GatewayConnection: Sendable {
    let endpoint: String
    private let client: MajordomoClient

    init(endpoint: String, timeout: Duration, retries: Int) throws(PostsError) {
        self.endpoint = endpoint
        var configuration = MajordomoClient.Configuration()
        configuration.timeout = timeout
        configuration.retries = retries
        do {
            client = try MajordomoClient(endpoint: endpoint, configuration: configuration, context: try Context()) { body in
                body.first.flatMap { frame in frame.withUnsafeBytes { JSONRPC.id(in: Data($0))?.correlationKey } }
            }
        } catch {
            throw .unavailable("cannot use gateway endpoint '\(endpoint)': \(error)")
        }
    }

    func call<Params: Encodable & Sendable, Result: Decodable>(
        _ service: String, _ method: String, _ params: Params?, as type: Result.Type
    ) async throws(PostsError) -> Result {
        let id = JSONRPCID.string(UUID().uuidString)
        let reply: [Frame]
        do {
            let body = try JSONRPC.encodeRequest(id: id, method: method, params: params)
            reply = try await client.request(service: service, body: [Frame(body)], correlationID: id.correlationKey)
        } catch let error as MajordomoClientError {
            if case .timeout(_, _, let attempts, let each) = error {
                throw .unavailable("no answer from the gateway at \(endpoint) (\(attempts) tries of \(each)); is it running? Start everything with `make run`, or set POSTS_GATEWAY / --gateway")
            }
            throw .unavailable("\(error)")
        } catch {
            throw .failed("\(error)")
        }
        do {
            return try JSONRPC.decodeResponse(Data(reply.first?.bytes ?? []), as: Result.self)
        } catch {
            if error.code == .serviceUnavailable, !error.message.contains("shutting down") {
                throw .unavailable("\(error.message). Is `posts-service` running? `make run` starts it")
            }
            throw PostsError(error)
        }
    }
}

import ArgumentParser
import Foundation
import NetworkPlatform
import Observability
import ServiceSupport

/// Everything `posts-http` runs with, each from its flag, else its
/// variable, else its default; checked together, so a bad value or an
/// unsafe combination stops the edge at start, saying which.
struct EdgeSettings {
    let address: ListenAddress
    /// Listening off loopback with no TLS or no tokens, said out loud.
    let insecure: Bool
    let budget: Duration
    let maxStreams: Int
    let maxConnections: Int
    let idleTimeout: Duration
    let metrics: MetricsAddress?
    let tls: EdgeTLS.Files?
    /// The allow-list of API tokens; nil: no token is asked for.
    let tokens: String?
    let endpoints: [String]
    let security: SecuritySettings

    init(_ command: PostsHTTPCommand, _ settings: Settings) throws {
        let environment = settings.environment
        address = try ListenAddress(command.listen ?? environment["POSTS_HTTP_LISTEN"] ?? ListenAddress.fallback)
        let seconds =
            try command.timeout ?? environment["POSTS_HTTP_TIMEOUT"].map { text in
                guard let value = Double(text) else { throw ValidationError("POSTS_HTTP_TIMEOUT must be seconds, not '\(text)'") }
                return value
            } ?? 10
        guard Exchange.budgets.contains(seconds) else {
            throw ValidationError(
                "--timeout must be from \(Exchange.budgets.lowerBound) to \(Int(Exchange.budgets.upperBound)) seconds, not \(seconds)")
        }
        budget = .milliseconds(Int64((seconds * 1000).rounded()))
        let cert = command.tlsCert ?? environment["POSTS_HTTP_TLS_CERT"]
        let key = command.tlsKey ?? environment["POSTS_HTTP_TLS_KEY"]
        switch (cert, key) {
        case (nil, nil): tls = nil
        case (let cert?, let key?): tls = EdgeTLS.Files(certificate: cert, key: key)
        default: throw ValidationError("--tls-cert and --tls-key go together: the certificate chain and its private key, both PEM files")
        }
        tokens = command.tokens ?? environment["POSTS_HTTP_TOKENS"]
        do {
            // The project's one reading of a yes/no variable (1, true, yes, …), as the CURVE rule reads it.
            insecure = try command.curve.insecure || settings.flag(env: "POSTS_INSECURE")
            maxStreams = try settings.integer(command.maxStreams, env: "POSTS_HTTP_MAX_STREAMS", default: 1000)
            maxConnections = try settings.integer(command.maxConnections, env: "POSTS_HTTP_MAX_CONNECTIONS", default: 2000)
            idleTimeout = try settings.duration(command.idleTimeout, env: "POSTS_HTTP_IDLE_TIMEOUT", default: .seconds(60))
            metrics = try settings.metricsAddress(command.metrics)
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
        guard maxStreams < maxConnections else {
            throw ValidationError(
                "--max-streams (\(maxStreams)) must be below --max-connections (\(maxConnections)): each change stream holds a connection")
        }
        guard address.isLoopback || insecure || (tls != nil && tokens != nil) else {
            throw ValidationError(
                "refusing to listen on \(address) without TLS and tokens: anyone who reaches it could read and write every post. "
                    + "Give --tls-cert, --tls-key and --tokens, listen on loopback (127.0.0.1), "
                    + "or say --insecure (POSTS_INSECURE=1) to allow it anyway")
        }
        endpoints = command.gateway.flatMap(Endpoints.list) ?? Endpoints.gateways(environment: environment)
        guard !endpoints.isEmpty else { throw ValidationError("--gateway names no endpoint") }
        for endpoint in endpoints {
            do { try Endpoints.validate(endpoint) } catch { throw ValidationError("\(error)") }
        }
        do {
            security = try command.curve.resolve(settings, endpoints: endpoints)
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
    }

    /// What an operator should hear of at start: what is left open.
    var warnings: [String] {
        var warnings: [String] = []
        if !address.isLoopback && tls == nil {
            warnings.append("listening off loopback without TLS (--insecure): anyone on the path reads every request")
        }
        if !address.isLoopback && tokens == nil {
            warnings.append("listening off loopback without tokens (--insecure): anyone who reaches it reads and writes every post")
        }
        return warnings
    }
}

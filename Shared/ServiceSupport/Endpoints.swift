#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The gateway endpoints every process agrees on, from the environment.
///
/// - `POSTS_GATEWAY`: where clients and workers connect (default
///   `ipc://<runtime dir>/gateway.ipc`).
/// - `POSTS_GATEWAY_BIND`: what the gateway binds, comma-separated (default:
///   `POSTS_GATEWAY`). Differs only for tcp://, e.g. bind `tcp://*:5555`,
///   connect `tcp://gateway-host:5555`.
public enum Endpoints {
    public static func gateway(environment: [String: String]) -> String {
        if let value = environment["POSTS_GATEWAY"], !value.isEmpty { return value }
        return "ipc://\(RuntimeDirectory.path(environment: environment))/gateway.ipc"
    }

    public static func gatewayBind(environment: [String: String]) -> [String] {
        if let value = environment["POSTS_GATEWAY_BIND"], !value.isEmpty {
            return value.split(separator: ",").map { $0.trimmed() }
        }
        return [gateway(environment: environment)]
    }

    /// Where publishers connect to the gateway's event bus (`POSTS_EVENTS_PUBLISH`).
    public static func eventsPublish(environment: [String: String]) -> String {
        if let value = environment["POSTS_EVENTS_PUBLISH"], !value.isEmpty { return value }
        return "ipc://\(RuntimeDirectory.path(environment: environment))/events-publish.ipc"
    }

    /// Where subscribers connect to the gateway's event bus (`POSTS_EVENTS_SUBSCRIBE`).
    public static func eventsSubscribe(environment: [String: String]) -> String {
        if let value = environment["POSTS_EVENTS_SUBSCRIBE"], !value.isEmpty { return value }
        return "ipc://\(RuntimeDirectory.path(environment: environment))/events-subscribe.ipc"
    }

    /// Checks an endpoint's form, so a typo is reported with the value.
    public static func validate(_ endpoint: String) throws {
        let transports = ["ipc://", "tcp://", "inproc://"]
        guard let transport = transports.first(where: endpoint.hasPrefix) else {
            throw ConfigurationError("endpoint '\(endpoint)' must start with ipc://, tcp:// or inproc://")
        }
        let rest = endpoint.dropFirst(transport.count)
        guard !rest.isEmpty else { throw ConfigurationError("endpoint '\(endpoint)' has no address after \(transport)") }
        // sockaddr_un holds 107 bytes of path.
        if transport == "ipc://", rest.utf8.count > 107 {
            throw ConfigurationError("ipc path in '\(endpoint)' is \(rest.utf8.count) bytes; the limit is 107 (use a shorter POSTS_RUNTIME_DIR)")
        }
    }
}

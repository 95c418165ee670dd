#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The gateway endpoints every process agrees on, from the environment.
///
/// - `POSTS_GATEWAY`: where clients and workers connect (default
///   `ipc://<runtime dir>/gateway.ipc`); comma-separated for several
///   gateways side by side: workers serve every one, clients use one and
///   move to the next when it dies.
/// - `POSTS_GATEWAY_BIND`: what the gateway binds, comma-separated (default:
///   `POSTS_GATEWAY`, which must then name one gateway). Differs for
///   tcp://, e.g. bind `tcp://*:5555`, connect `tcp://gateway-host:5555`.
/// - `POSTS_EVENTS_PUBLISH`, `POSTS_EVENTS_SUBSCRIBE`: each gateway's event
///   bus, comma-separated likewise.
public enum Endpoints {
    /// Every gateway, in the order given.
    public static func gateways(environment: [String: String]) -> [String] {
        list(environment["POSTS_GATEWAY"]) ?? ["ipc://\(RuntimeDirectory.path(environment: environment))/gateway.ipc"]
    }

    /// What a gateway binds: `POSTS_GATEWAY_BIND`, else its one `POSTS_GATEWAY`.
    public static func gatewayBind(environment: [String: String]) throws -> [String] {
        if let bind = list(environment["POSTS_GATEWAY_BIND"]) { return bind }
        return [try own(gateways(environment: environment), variable: "POSTS_GATEWAY", flag: "--bind")]
    }

    /// Where publishers connect to the gateways' event buses (`POSTS_EVENTS_PUBLISH`).
    public static func eventsPublish(environment: [String: String]) -> [String] {
        list(environment["POSTS_EVENTS_PUBLISH"]) ?? ["ipc://\(RuntimeDirectory.path(environment: environment))/events-publish.ipc"]
    }

    /// Where subscribers connect to the gateways' event buses (`POSTS_EVENTS_SUBSCRIBE`).
    public static func eventsSubscribe(environment: [String: String]) -> [String] {
        list(environment["POSTS_EVENTS_SUBSCRIBE"]) ?? ["ipc://\(RuntimeDirectory.path(environment: environment))/events-subscribe.ipc"]
    }

    /// The endpoints of a comma-separated list, trimmed; nil for none.
    public static func list(_ text: String?) -> [String]? {
        let endpoints = (text ?? "").split(separator: ",").map { $0.trimmed() }.filter { !$0.isEmpty }
        return endpoints.isEmpty ? nil : endpoints
    }

    /// The one endpoint a gateway binds of `endpoints`: a list names several
    /// gateways, for the processes that use them all, and a gateway cannot
    /// tell which is its own.
    public static func own(_ endpoints: [String], variable: String, flag: String) throws -> String {
        guard endpoints.count == 1 else {
            throw ConfigurationError(
                "\(variable) lists \(endpoints.count) gateways' endpoints (\(endpoints.joined(separator: ","))); "
                    + "a gateway binds its own: give it \(flag), or an environment of its own (docs/OPERATIONS.md, \"Two gateways\")")
        }
        return endpoints[0]
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

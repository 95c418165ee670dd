import ArgumentParser
import Domain
import Foundation
import LocalPlatform
import NetworkPlatform
import ServiceSupport

/// Options every command takes: where the posts are, and how to print them.
struct ConnectionOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Gateway endpoints, comma-separated: one is used, the next when it dies (default: POSTS_GATEWAY, else the ipc:// default).",
            valueName: "endpoints"))
    var gateway: String?

    @Option(
        help: ArgumentHelp(
            "Seconds to wait for an answer, and for a service's workers to register after a gateway restart (a dead gateway is noticed within 1 "
                + "s, and requests in flight go to the next). Each request carries it as its budget: past it, nothing more is done for it.",
            valueName: "seconds"))
    var timeout: Double = 10

    @Option(help: ArgumentHelp("Use this SQLite file directly, with no services.", valueName: "path"))
    var local: String?

    @Flag(help: "Print JSON for scripts instead of tables.")
    var json = false

    @OptionGroup var curve: CurveOptions

    func validate() throws {
        guard timeout >= 0.01, timeout <= 3600 else { throw ValidationError("--timeout must be from 0.01 to 3600 seconds, not \(timeout)") }
        if local != nil, gateway != nil { throw ValidationError("--local and --gateway name two different places; give one") }
        if local == nil {
            guard !endpoints.isEmpty else { throw ValidationError("--gateway names no endpoint") }
            do {
                for endpoint in endpoints { try Endpoints.validate(endpoint) }
            } catch {
                throw ValidationError("\(error)" + (gateway == nil ? " (from POSTS_GATEWAY)" : ""))
            }
        }
    }

    /// The gateways, in the order they are tried.
    var endpoints: [String] {
        guard let gateway else { return Endpoints.gateways(environment: ProcessInfo.processInfo.environment) }
        return Endpoints.list(gateway) ?? []
    }

    /// The options that say where the posts are, to repeat in a hint.
    var placeArguments: String {
        if let local { return " --local \(local)" }
        if let gateway { return " --gateway \(gateway)" }
        return ""
    }

    /// The use cases on the platform these options name: a file, or the gateway.
    func provider() throws -> UseCaseProvider {
        if let local { return UseCaseProvider(try LocalPlatform.open(path: local)) }
        let settings = Settings()
        let events = Endpoints.eventsSubscribe(environment: settings.environment)
        let security: SecuritySettings
        do {
            security = try curve.resolve(settings, endpoints: endpoints + events)
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
        // One attempt: the gateway itself hands a request to another worker
        // when one dies, and the client sends requests in flight again when
        // a gateway dies (writes with their request keys, so once).
        return UseCaseProvider(
            try NetworkPlatform.connect(
                endpoints: endpoints, events: events, timeout: .milliseconds(Int64(timeout * 1000)), retries: 0,
                security: security.security))
    }
}

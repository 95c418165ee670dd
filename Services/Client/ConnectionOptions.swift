import ArgumentParser
import Domain
import Foundation
import LocalPlatform
import NetworkPlatform
import ServiceSupport

/// Options every command takes: where the posts are, and how to print them.
struct ConnectionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Gateway endpoint (default: POSTS_GATEWAY, else the ipc:// default).", valueName: "endpoint"))
    var gateway: String?

    @Option(help: ArgumentHelp("Seconds to wait for each attempt (two attempts).", valueName: "seconds"))
    var timeout: Double = 3

    @Option(help: ArgumentHelp("Use this SQLite file directly, with no services.", valueName: "path"))
    var local: String?

    @Flag(help: "Print JSON for scripts instead of tables.")
    var json = false

    func validate() throws {
        guard timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout must be between 0 and 3600 seconds, not \(timeout)") }
        if local != nil, gateway != nil { throw ValidationError("--local and --gateway name two different places; give one") }
    }

    func provider() throws(PostsError) -> any UseCaseProvider {
        if let local { return try LocalUseCaseProvider(path: local) }
        let endpoint = gateway ?? Endpoints.gateway(environment: ProcessInfo.processInfo.environment)
        do {
            try Endpoints.validate(endpoint)
        } catch {
            throw .invalid(field: "--gateway", rule: "\(error)")
        }
        return try NetworkUseCaseProvider(endpoint: endpoint, timeout: .milliseconds(Int64(timeout * 1000)), retries: 1)
    }
}

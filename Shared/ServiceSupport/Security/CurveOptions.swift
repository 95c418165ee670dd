import ArgumentParser

/// The CURVE flags of every process that connects to the gateway (the
/// workers and the CLI), each with its variable: one declaration, so their
/// --help and their checks agree.
public struct CurveOptions: ParsableArguments {
    @Option(help: ArgumentHelp("This process's CURVE secret-key file (POSTS_CURVE_KEY).", valueName: "path"))
    public var curveKey: String?
    @Option(help: ArgumentHelp("The gateway's CURVE public key, Z85 text or a file (POSTS_GATEWAY_KEY).", valueName: "key"))
    public var gatewayKey: String?
    @Flag(help: "Use CURVE on ipc:// endpoints too (POSTS_CURVE_IPC=1).")
    public var curveIpc = false
    @Flag(help: "Allow tcp:// without CURVE: plaintext anyone on the network can read (POSTS_INSECURE=1).")
    public var insecure = false

    public init() {}

    /// The keys for connections to `endpoints`, or a ConfigurationError
    /// saying what is missing and how to make it.
    public func resolve(_ settings: Settings, endpoints: [String]) throws -> SecuritySettings {
        try SecuritySettings.client(
            settings, curveKey: curveKey, gatewayKey: gatewayKey, insecure: insecure,
            curveOnIPC: curveIpc, endpoints: endpoints)
    }
}

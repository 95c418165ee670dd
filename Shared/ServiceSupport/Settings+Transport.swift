import Logging
import ZeroMQ

extension Settings {
    /// The process's ZeroMQ context: its CURVE rule, and which transport
    /// serves its endpoints (`POSTS_ZMTP`): `own` (the default) speaks ZMTP
    /// itself on ipc:// and numeric tcp://, plaintext or CURVE; `libzmq` hands every
    /// endpoint to libzmq, as before our own ZMTP (to compare, or to work
    /// around a fault of ours). Anything else is refused, naming the variable.
    public func context(security: Security) throws -> Context {
        let text = environment["POSTS_ZMTP"] ?? ""
        switch text.trimmed().lowercased() {
        case "", "own": return try Context(security: security, ownZMTP: true)
        case "libzmq": return try Context(security: security, ownZMTP: false)
        default: throw ConfigurationError("POSTS_ZMTP='\(Escaped.line(text))' is neither 'own' nor 'libzmq'")
        }
    }
}

extension Context {
    /// Logs, once per endpoint, that libzmq rather than our own ZMTP serves
    /// it, and why: its bounds per peer are libzmq's (a high-water mark)
    /// rather than ours (docs/OPERATIONS.md, "Transports"). `binding`: the
    /// endpoints are the process's to bind (the gateway's), else to
    /// connect to (a worker's gateways).
    public func logLibzmqUse(_ endpoints: [String], binding: Bool, logger: Logger) {
        for endpoint in endpoints where !speaksZMTPItself(endpoint, binding: binding) {
            let reason =
                !ownZMTP
                ? "POSTS_ZMTP=libzmq" : "not an endpoint our ZMTP serves (a host name, a wildcard to connect to, inproc:// or ipc://*)"
            logger.info("libzmq serves \(endpoint)", metadata: ["why": "\(reason)"])
        }
    }
}

import Logging
import ZeroMQ

extension Settings {
    /// The process's ZeroMQ context: its CURVE rule, and which transport
    /// serves its endpoints (`POSTS_ZMTP`): `own` (the default) speaks ZMTP
    /// itself on plaintext ipc:// and numeric tcp://; `libzmq` hands every
    /// endpoint to libzmq, as before our own ZMTP (to compare, or to work
    /// around a fault of ours). Anything else is refused, naming the variable.
    public func context(security: Security) throws -> Context {
        let text = environment["POSTS_ZMTP"].map { $0.trimmed().lowercased() } ?? ""
        switch text {
        case "", "own": return try Context(security: security, ownZMTP: true)
        case "libzmq": return try Context(security: security, ownZMTP: false)
        default: throw ConfigurationError("POSTS_ZMTP='\(text)' is neither 'own' nor 'libzmq'")
        }
    }
}

extension Context {
    /// Logs, once per endpoint, that libzmq rather than our own ZMTP serves
    /// it, and why: its bounds per peer are libzmq's (a high-water mark)
    /// rather than ours (docs/OPERATIONS.md, "Transports").
    public func logLibzmqUse(_ endpoints: [String], logger: Logger) {
        for endpoint in endpoints where !speaksZMTPItself(endpoint) {
            let reason =
                !ownZMTP
                ? "POSTS_ZMTP=libzmq"
                : security.usesCurve(endpoint) ? "CURVE" : "not an endpoint our ZMTP serves (a host name, inproc:// or ipc://*)"
            logger.info("libzmq serves \(endpoint)", metadata: ["why": "\(reason)"])
        }
    }
}

import Logging
import ZeroMQ

public enum MajordomoClientError: Error, Equatable, CustomStringConvertible {
    /// No reply after every attempt.
    case timeout(service: String, endpoint: String, attempts: Int, each: Duration)
    /// The client was closed while the request was in flight.
    case closed
    /// No connection to any broker came up within
    /// `Configuration.firstConnectionWait`.
    case unreachable(endpoints: [String], waited: Duration)

    public var description: String {
        switch self {
        case .timeout(let service, let endpoint, let attempts, let each):
            "no reply from service '\(service)' through \(endpoint) after \(attempts) attempt(s) of \(each) each; is the gateway running, with a "
                + "'\(service)' worker?"
        case .closed:
            "the client was closed before the reply arrived"
        case .unreachable(let endpoints, let waited):
            "no connection to \(endpoints.joined(separator: ",")) within \(waited); is the gateway running?"
        }
    }
}

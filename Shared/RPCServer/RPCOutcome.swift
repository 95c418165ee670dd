import Domain
import Wire

/// How a request ended, as metrics count it: answered with a result, or
/// with the error code it was answered with.
public enum RPCOutcome: Sendable, Equatable {
    case ok
    case error(JSONRPCErrorCode)

    /// A label value: `ok`, or the code's name in snake case (`invalid_params`).
    public var label: String {
        switch self {
        case .ok: "ok"
        case .error(let code): code.name.replacingSpaces
        }
    }
}

extension String {
    fileprivate var replacingSpaces: String { String(map { $0 == " " ? "_" : $0 }) }
}

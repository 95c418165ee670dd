#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Synchronization
import ZeroMQ

public enum WorkerError: Error, Equatable, CustomStringConvertible {
    case invalidServiceName(String)

    public var description: String {
        switch self {
        case .invalidServiceName(let name):
            "service name '\(name)' must be 1-255 bytes and must not start with '\(MDP.mmiPrefix)' (reserved for the broker)"
        }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What is full.
public enum Busy: Sendable, Equatable, CustomStringConvertible {
    /// This client already has `limit` requests waiting for answers.
    case clientLimit(Int)
    /// `service` already has `limit` requests waiting for a worker.
    case queueFull(service: String, limit: Int)
    /// Another writer holds the store.
    case store

    public var description: String {
        switch self {
        case .clientLimit(let limit): "busy: this client already has \(limit) requests waiting for answers"
        case .queueFull(let service, let limit): "busy: '\(service)' already has \(limit) requests waiting"
        case .store: "busy: the store is locked by another writer"
        }
    }
}

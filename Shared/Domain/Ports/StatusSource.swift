#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What is running: services and processes, search indexes, a post count.
public protocol StatusSource: Sendable {
    func status() async throws(PostsError) -> SystemStatus
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What is running and how it is doing.
public protocol StatusUseCase: Sendable {
    func status() async throws(PostsError) -> SystemStatus
}

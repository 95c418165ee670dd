#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every write in order, for keeping other stores (search indexes) in sync.
public protocol PostChangesUseCase: Sendable {
    func changes(after sequence: Int64, limit: Int?) async throws(PostsError) -> PostChanges
    /// The newest change sequence.
    func head() async throws(PostsError) -> Int64
    /// The head for a change notice after a write of this process: at
    /// least that write's sequence, with no read where the store knows it.
    func headAfterWrite() async throws(PostsError) -> Int64
}

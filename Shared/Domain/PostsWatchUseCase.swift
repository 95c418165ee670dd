#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Tells when posts changed anywhere (another terminal, a script, an
/// import): each element is the newest change sequence. Best effort and
/// possibly coalesced; a reader that needs every change pulls
/// `PostChangesUseCase.changes(after:limit:)`.
public protocol PostsWatchUseCase: Sendable {
    func changes() -> AsyncStream<Int64>
}

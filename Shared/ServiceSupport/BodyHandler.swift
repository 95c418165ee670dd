#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Majordomo
import ZeroMQ

/// A service whose requests are one frame each (every JSON-RPC service
/// here): its handler takes the request's frame, to read where its bytes
/// are, and gives the reply as bytes; it never sees the transport's
/// frames otherwise.
public struct BodyHandler: Sendable {
    let handle: nonisolated(nonsending) @Sendable (Frame) async -> Data
    /// The reply to a request of another number of frames.
    let refuse: @Sendable (_ frames: Int) -> Data

    public init(
        _ handle: nonisolated(nonsending) @escaping @Sendable (Frame) async -> Data, refusing refuse: @escaping @Sendable (_ frames: Int) -> Data
    ) {
        (self.handle, self.refuse) = (handle, refuse)
    }

    /// As a worker's handler.
    public var worker: WorkerService.Handler {
        .async { [handle, refuse] frames in
            guard frames.count == 1 else { return [Frame(refuse(frames.count))] }
            return [Frame(await handle(frames[0]))]
        }
    }
}

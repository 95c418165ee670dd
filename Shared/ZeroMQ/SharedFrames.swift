#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Frames to hand on shared rather than copied when the same bytes arrive
/// (a protocol's headers).
public struct SharedFrames: Sendable {
    private let frames: [Frame]

    public init(_ frames: [Frame]) { self.frames = frames }

    func frame(matching buffer: UnsafeRawBufferPointer) -> Frame? {
        frames.first { frame in
            let bytes = frame.storage.bytes
            return bytes.count == buffer.count && (bytes.isEmpty || memcmp(bytes.baseAddress!, buffer.baseAddress!, bytes.count) == 0)
        }
    }
}

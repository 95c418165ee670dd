/// Frames to hand on shared rather than copied when the same bytes arrive
/// (a protocol's headers).
public struct SharedFrames: Sendable {
    private let frames: [Frame]

    public init(_ frames: [Frame]) { self.frames = frames }

    func frame(matching buffer: UnsafeRawBufferPointer) -> Frame? {
        frames.first { $0.holds(buffer) }
    }
}

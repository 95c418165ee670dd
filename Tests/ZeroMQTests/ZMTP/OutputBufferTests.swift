import TestSupport
import TestTraits
import Testing
@testable import ZeroMQ

@Suite("Output buffer", .ownThread, .timeLimit(.minutes(5)))
struct OutputBufferTests {
    /// A peer that reads steadily while it keeps asking: what it was sent
    /// and read is let go as it goes, so memory follows what waits, not
    /// everything ever sent (before, 259 MB over 30 s at 8 MB/s).
    @Test func test_writtenBytesAreLetGo_whileMoreKeepsComing() async {
        var buffer = OutputBuffer()
        let chunk = [UInt8](repeating: 9, count: 32 << 10)
        var largest = 0
        for round in 0..<2000 {
            buffer.append(contentsOf: chunk)
            // The peer reads a little less than it is sent at first, then keeps pace.
            buffer.removeFirst(round < 10 ? chunk.count / 2 : chunk.count)
            largest = max(largest, buffer.capacity)
        }
        #expect(buffer.count == 10 * chunk.count / 2)
        #expect(largest <= 4 * (buffer.count + chunk.count), "held \(largest) bytes for \(buffer.count) waiting")
    }

    @Test func test_whatWaits_isWhatWasNotWritten_inOrder() async {
        var buffer = OutputBuffer()
        buffer.append(contentsOf: Array(0..<200))
        buffer.removeFirst(150)
        buffer.append(contentsOf: [7, 8])
        #expect(buffer.withUnwritten { Array($0) } == Array(150..<200) + [7, 8])
        buffer.removeFirst(52)
        #expect(buffer.isEmpty && buffer.count == 0)
    }

    @Test func test_oneLargeMessage_doesNotKeepItsRoom_onceWritten() async {
        var buffer = OutputBuffer()
        buffer.append(contentsOf: [UInt8](repeating: 1, count: 4 << 20))
        buffer.removeFirst(4 << 20)
        #expect(buffer.capacity <= OutputBuffer.keptCapacity)
    }
}

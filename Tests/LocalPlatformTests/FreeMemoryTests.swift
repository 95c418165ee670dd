import Foundation
import Testing

@testable import LocalPlatform

/// Memory malloc holds free is given back to the system.
@Suite("Free memory given back")
struct FreeMemoryTests {
    private func privateMegabytes() throws -> Double {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("RssAnon:") })
        return Double(line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0) / 1024
    }

    @Test func test_memoryFreedAmidMemoryStillHeld_isGivenBack() throws {
        // 160 MB in small blocks, then all freed but one in 256, so that
        // the heap cannot shrink from its top: the free room stays the process's.
        var blocks = (0..<640_000).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 240, alignment: 16) }
        for block in blocks { memset(block, 1, 240) }
        for (index, block) in blocks.enumerated() where index % 256 != 0 { block.deallocate() }
        blocks = blocks.enumerated().filter { $0.offset % 256 == 0 }.map(\.element)
        let held = try privateMegabytes()
        FreeMemory.giveBack()
        let after = try privateMegabytes()
        for block in blocks { block.deallocate() }
        #expect(after < held - 100, "RssAnon \(held) MB before, \(after) MB after")
    }
}

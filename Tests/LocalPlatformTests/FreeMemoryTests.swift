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

    @Test func test_largeBlocksFreed_goBackAtOnce_evenAfterLargerOnesWereFreed() throws {
        #expect(FreeMemory.keepLargeBlocksMapped())
        // A larger block freed first: glibc alone would then serve the
        // next ones from its heap, and keep them when freed.
        let larger = UnsafeMutableRawPointer.allocate(byteCount: 8 << 20, alignment: 16)
        memset(larger, 1, 8 << 20)
        larger.deallocate()
        // 40 blocks of 2 MB, then every one freed but the last, which
        // would hold the heap's top.
        let blocks = (0..<40).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 2 << 20, alignment: 16) }
        for block in blocks { memset(block, 1, 2 << 20) }
        let held = try privateMegabytes()
        for block in blocks.dropLast() { block.deallocate() }
        let after = try privateMegabytes()
        blocks.last?.deallocate()
        #expect(after < held - 70, "RssAnon \(held) MB before, \(after) MB after, with no trim")
    }
}

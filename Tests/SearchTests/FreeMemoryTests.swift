import Foundation
import TestSupport
import TestTraits
import Testing

@testable import Search

/// Memory malloc holds free is given back to the system.
@Suite("Free memory given back", .ownThread, .timeLimit(.minutes(5)))
struct FreeMemoryTests {
    private func privateMegabytes() throws -> Double {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("RssAnon:") })
        return Double(line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0) / 1024
    }

    @Test func test_memoryFreedAmidMemoryStillHeld_isGivenBack() async throws {
        // Other tests of this process trim too (`ImpactRanker` does): one
        // that trims between the frees and the first reading below leaves
        // nothing to give back, so the scene is set again. Others allocate
        // meanwhile (they run beside it, on threads of their own), which
        // can hide part of what was given back: a reading that shows less
        // than 100 MB given back is tried again, and all are reported.
        var readings: [String] = []
        for _ in 0..<5 {
            // 160 MB in small blocks, then all freed but one in 256, so that
            // the heap cannot shrink from its top: the free room stays the process's.
            var blocks = (0..<640_000).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 240, alignment: 16) }
            for block in blocks { memset(block, 1, 240) }
            let full = try privateMegabytes()
            for (index, block) in blocks.enumerated() where index % 256 != 0 { block.deallocate() }
            blocks = blocks.enumerated().filter { $0.offset % 256 == 0 }.map(\.element)
            let held = try privateMegabytes()
            defer { for block in blocks { block.deallocate() } }
            guard held > full - 50 else {  // freeing alone gives back little: another test trimmed
                readings.append("another test gave it back first (RssAnon \(full) MB, then \(held) MB)")
                continue
            }
            FreeMemory.giveBack()
            let after = try privateMegabytes()
            if after < held - 100 { return }
            readings.append("RssAnon \(held) MB before, \(after) MB after")
        }
        Issue.record("160 MB freed amid memory still held was not given back (at least 100 MB) in 5 tries: \(readings)")
    }
}

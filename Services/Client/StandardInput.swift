import Foundation

/// Standard input read to its end on a thread of its own: a pipe may take
/// its time, and a wait in async code would hold one of Swift's few
/// cooperative threads meanwhile (docs/ARCHITECTURE.md, "Threads").
enum StandardInput {
    static func readToEnd() async -> Data {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: FileHandle.standardInput.readDataToEndOfFile()) }.start()
        }
    }
}

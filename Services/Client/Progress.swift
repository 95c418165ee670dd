import ArgumentParser
import Domain
import Foundation
import ServiceSupport
import Synchronization

/// A progress bar on a terminal, plain progress lines otherwise (on stderr,
/// so standard output stays clean for scripts).
final class Progress: Sendable {
    let quiet: Bool
    private let bar = Output.errorIsTerminal
    private let state = Mutex((saved: 0, lastLine: 0))

    init(quiet: Bool) { self.quiet = quiet }

    var saved: Int { state.withLock { $0.saved } }

    func update(_ done: Int, of total: Int) {
        let lastLine = state.withLock { state in
            defer { state.saved = done }
            return state.lastLine
        }
        guard !quiet, total > 0 else { return }
        if bar {
            let width = 30
            let filled = done * width / total
            let line =
                "\rImporting [\(String(repeating: "#", count: filled))\(String(repeating: ".", count: width - filled))] \(done * 100 / total)% "
                + "\(done)/\(total)"
            StandardError.write(line)
        } else if done == total || done - lastLine >= max(1, total / 10) {
            state.withLock { $0.lastLine = done }
            StandardError.write("imported \(done)/\(total)\n")
        }
    }

    func finish() {
        if bar, !quiet, saved > 0 { StandardError.write("\n") }
    }
}

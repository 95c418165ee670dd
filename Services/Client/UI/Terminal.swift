import Foundation
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The terminal in full-screen mode: raw input (no echo, no line buffering,
/// no signals from keys, so Ctrl-C arrives as a key), the alternate screen,
/// a hidden cursor. `restore()` puts everything back; it is safe to call
/// more than once and from a signal path.
final class Terminal: @unchecked Sendable {
    private var saved = termios()
    private let lock = NSLock()
    private var active = false

    static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    func enter() throws {
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { throw UIError("cannot read the terminal's settings (errno \(errno))") }
        var raw = saved
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { throw UIError("cannot switch the terminal to raw mode (errno \(errno))") }
        lock.withLock { active = true }
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
    }

    func restore() {
        let wasActive = lock.withLock { () -> Bool in
            defer { active = false }
            return active
        }
        guard wasActive else { return }
        write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
    }

    /// Rows and columns now (80 × 24 when the terminal does not say).
    var size: (rows: Int, columns: Int) {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_row > 0, window.ws_col > 0 else { return (24, 80) }
        return (Int(window.ws_row), Int(window.ws_col))
    }

    func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if written <= 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
        bytes.removeAll()
    }
}

import Application
import Domain
import Foundation
import ServiceSupport
import Wire
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Printing for people (tables, relative dates) and for scripts (JSON).
enum Output {
    /// Wire's writer, as every message is written: keys sorted, dates as text.
    static func json<Value: Encodable>(_ value: Value) {
        print((try? JSONWriter.encodeForPeople(value)) ?? "null")
    }

    /// Every cell is peer-supplied text, shown on one line: escaped.
    static func table(_ header: [String], _ rows: [[String]]) {
        let rows = rows.map { $0.map(Escaped.line) }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingCharacters(in: .whitespaces)
        }
        print(line(header))
        for row in rows { print(line(row)) }
    }

    /// "just now", "5 min ago", …: the interface's words (`RelativeDate`).
    static func relative(_ date: Date, now: Date = Date()) -> String { RelativeDate.describe(date, now: now) }

    /// Matches in bold yellow on a terminal; plain text otherwise. One
    /// line, escaped (a snippet is a post's text).
    static func highlighted(_ text: String, _ ranges: [Range<Int>]) -> String {
        guard isTerminal, !ranges.isEmpty else { return Escaped.line(text) }
        var output = String.UnicodeScalarView()
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            if ranges.contains(where: { $0.lowerBound == offset }) { output.append(contentsOf: "\u{1B}[1;33m".unicodeScalars) }
            output.append(contentsOf: Escaped.line(String(scalar)).unicodeScalars)
            if ranges.contains(where: { $0.upperBound == offset + 1 }) { output.append(contentsOf: "\u{1B}[0m".unicodeScalars) }
        }
        return String(output)
    }

    static func shorten(_ text: String, to length: Int) -> String {
        let line = text.replacingOccurrences(of: "\n", with: " ")
        return line.count > length ? String(line.prefix(length - 1)) + "…" : line
    }

    static var isTerminal: Bool { isatty(STDOUT_FILENO) != 0 }
    /// Standard input is a pipe or a regular file: something that ends.
    static var inputIsPipeOrFile: Bool {
        var info = stat()
        guard fstat(STDIN_FILENO, &info) == 0 else { return false }
        let kind = info.st_mode & S_IFMT
        return kind == S_IFIFO || kind == S_IFREG
    }
    static var errorIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }
}

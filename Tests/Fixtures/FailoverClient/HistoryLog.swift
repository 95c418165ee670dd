import Foundation
import Synchronization

/// The history file: one JSON object per line, written as operations end.
final class HistoryLog: Sendable {
    private let handle: Mutex<FileHandle>

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw ValidationErrorText("cannot write the history to \(path)")
        }
        self.handle = Mutex(handle)
    }

    /// One operation: `fields` as JSON (strings, numbers, booleans).
    func record(_ fields: [String: any Sendable]) {
        guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]) else { return }
        handle.withLock { $0.write(data + Data("\n".utf8)) }
    }

    func close() { handle.withLock { try? $0.close() } }

    /// Now, as the history counts time: milliseconds since 1970.
    static var now: Double { Date().timeIntervalSince1970 * 1000 }
}

struct ValidationErrorText: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

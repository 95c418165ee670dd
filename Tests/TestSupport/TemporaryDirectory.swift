import Foundation

/// Runs `body` with a fresh directory under the system's temporary one
/// (`<prefix>-<6 random characters>`, short enough for ipc:// paths),
/// removed after, whatever `body` does: the one helper every test target
/// (and the benchmark) uses for socket files and databases.
public func withTemporaryDirectory<Value>(_ prefix: String = "test", _ body: (String) throws -> Value) throws -> Value {
    let directory = try makeTemporaryDirectory(prefix)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    return try body(directory)
}

/// As `withTemporaryDirectory`, for an async `body`.
public func withTemporaryDirectory<Value>(_ prefix: String = "test", _ body: (String) async throws -> Value) async throws -> Value {
    let directory = try makeTemporaryDirectory(prefix)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    return try await body(directory)
}

/// A fresh directory under the system's temporary one, made by mkdtemp
/// (owner-only, a name no other process has); the caller removes it. Under
/// /tmp when TMPDIR is long: an ipc:// path may be at most 107 bytes.
public func makeTemporaryDirectory(_ prefix: String = "test") throws -> String {
    let system = FileManager.default.temporaryDirectory.path
    let parent = system.utf8.count <= 40 ? system : "/tmp"
    var template = Array("\(parent)/\(prefix)-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
        throw TemporaryDirectoryError(description: "cannot make a directory in \(parent): \(String(cString: strerror(errno)))")
    }
    return String(cString: made)
}

public struct TemporaryDirectoryError: Error, CustomStringConvertible {
    public let description: String
}

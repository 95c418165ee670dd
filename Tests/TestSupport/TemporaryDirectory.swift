import Foundation

/// Runs `body` with a fresh directory under the system's temporary one
/// (`<prefix>-<8 random hex>`, short enough for ipc:// paths), removed
/// after, whatever `body` does: the one helper every test target uses for
/// socket files and databases.
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

/// A fresh directory under the system's temporary one; the caller removes it.
public func makeTemporaryDirectory(_ prefix: String = "test") throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    return directory
}

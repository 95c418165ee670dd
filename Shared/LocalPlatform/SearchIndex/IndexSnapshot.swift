import Domain
import Foundation
import GRDB

/// A consistent copy of a search index file, taken while its owner keeps
/// writing it: a new search worker starts from a copy of another's index
/// and pulls only the changes after it, instead of the whole feed.
///
/// The copy is SQLite's `VACUUM INTO` on a read-only connection: one read
/// transaction, so it holds exactly the documents of the sequence it
/// records, whatever the owner commits meanwhile.
public enum IndexSnapshot {
    /// The applied sequence of the index at `path`; nil when it cannot be read.
    public static func applied(at path: String) -> Int64? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try? readOnly(path).read { db in try SearchSchema.applied(db) }
    }

    /// Copies the index at `source` to `target` (which must not exist yet),
    /// owner-only; returns the sequence the copy holds.
    public static func copy(from source: String, to target: String) throws(PostsError) -> Int64 {
        do {
            // VACUUM INTO takes its own read transaction, outside any other.
            try readOnly(source).inDatabase { db in try db.execute(sql: "VACUUM INTO ?", arguments: [target]) }
            chmod(target, 0o600)
            // The copy's own record: the sequence of exactly what it holds.
            return try readOnly(target).read { db in try SearchSchema.applied(db) }
        } catch {
            try? FileManager.default.removeItem(atPath: target)
            throw .failed("cannot copy the search index \(source) to \(target): \(error)")
        }
    }

    private static func readOnly(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: path, configuration: configuration)
    }
}

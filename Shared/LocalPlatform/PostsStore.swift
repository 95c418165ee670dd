import Domain
import Foundation
import GRDB

/// The SQLite file: WAL mode (readers never wait for the writer), migrated
/// on open, safe to share between processes (writers wait for each other
/// up to `busyTimeout`).
final class PostsStore: Sendable {
    let path: String
    private let pool: DatabasePool

    init(path: String, busyTimeout: TimeInterval = 10) throws(PostsError) {
        self.path = path
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            var configuration = Configuration()
            configuration.busyMode = .timeout(busyTimeout)
            pool = try DatabasePool(path: path, configuration: configuration)
            try Schema.migrator.migrate(pool)
        } catch {
            throw .failed("cannot open the posts database at \(path): \(error)")
        }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(PostsError) -> T {
        do { return try await pool.read(body) } catch { throw Self.map(error) }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(PostsError) -> T {
        do { return try await pool.write(body) } catch { throw Self.map(error) }
    }

    private static func map(_ error: any Error) -> PostsError {
        if let error = error as? PostsError { return error }
        if let error = error as? DatabaseError, error.resultCode == .SQLITE_BUSY {
            return .busy("the posts database is busy; try again")
        }
        return .failed("database error: \(error)")
    }
}

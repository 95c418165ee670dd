import GRDB
import SystemSupport

/// Read-only connections to an index file that no other process writes (a
/// search worker's, `SQLiteSearchIndex`'s `exclusive`), so that searches
/// read on every core: the file is in WAL mode, where readers never wait
/// for each other, and the index's gate keeps a search's statements on
/// one state of the documents.
final class SearchReaders: Sendable {
    private let path: String
    /// Connections between reads (`IdlePool`: as many as have ever read at
    /// once, which the threads that search, a worker's sessions, bound).
    private let idle = IdlePool<DatabaseQueue>()

    /// Opens nothing yet: the first read that finds no connection idle opens
    /// one (the file exists and is migrated by then).
    init(path: String) {
        self.path = path
    }

    /// Runs `body` on a connection no other thread is using, with no
    /// transaction around it (a statement reads one snapshot; the gate
    /// keeps commits out between a search's statements).
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try idle.use(making: open) { connection in try connection.unsafeRead(body) }
    }

    private func open() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.prepareDatabase(SQLiteFile.readThroughMap)
        return try DatabaseQueue(path: path, configuration: configuration)
    }
}

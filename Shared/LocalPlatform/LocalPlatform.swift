import Domain
import Foundation
import Observability

/// The local platform: Domain's ports on one SQLite file, no services.
/// Search uses an index kept beside the file (`<file>-search`), brought
/// up to date before each search by Domain's `IndexSync`, so it finds what
/// any process wrote, and only indexes what is new. Its ranking postings
/// are saved beside it (`<file>-search-postings`) for the next process.
public enum LocalPlatform {
    /// Where a search index is kept: beside the database file, or in
    /// memory (for a process that never searches, such as posts-service).
    public enum SearchIndexPlace: Sendable { case besideFile, memory }

    /// Opens (creating and migrating if needed) the database at `path`, and
    /// its search index; `timers` times each store operation.
    public static func open(path: String, searchIndex: SearchIndexPlace = .besideFile, timers: StoreTimers? = nil) throws(PostsError)
        -> Platform
    {
        let store = try SQLiteFile(path: path, timers: timers)
        let feed = SQLiteChangeFeed(store: store)
        let indexPath = searchIndex == .besideFile ? searchIndexPath(for: path) : nil
        let index = try SQLiteSearchIndex(path: indexPath, postingsPath: indexPath.map { $0 + "-postings" })
        return Platform(
            store: SQLitePostStore(store: store), feed: feed, search: index, searchSync: IndexSync(index: index, feed: feed, pageSize: catchUpPage),
            status: SQLiteStatusSource(store: store),
            // Another process may write the file: its change sequence is polled.
            watch: PollingWatch(feed: feed, interval: .seconds(1)))
    }

    /// Changes applied per transaction when a local index catches up: more
    /// than a search worker's pages (which cross the gateway), as the file
    /// is read directly; pages stay bounded in bytes all the same.
    static let catchUpPage = 5_000

    /// Set when group or others may read the database at `path`: a process
    /// that owns the posts logs it at start. (A new database is made 0600
    /// in a 0700 directory, whatever the umask.)
    public static func accessWarning(path: String) -> String? {
        OwnerOnlyFiles.warning(database: path)
    }

    /// Where the search index of the database at `path` is kept.
    public static func searchIndexPath(for path: String) -> String { path + "-search" }
}

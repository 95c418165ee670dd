import Domain
import Foundation

/// The local platform: every use case on one SQLite file, no services.
public final class LocalUseCaseProvider: UseCaseProvider {
    private let store: PostsStore

    /// Opens (creating and migrating if needed) the database at `path`.
    public init(path: String) throws(PostsError) {
        store = try PostsStore(path: path)
    }

    public var path: String { store.path }

    public func makePostsUseCase() -> any PostsUseCase { LocalPostsUseCase(store: store) }
    public func makePostChangesUseCase() -> any PostChangesUseCase { LocalPostChangesUseCase(store: store) }
    public func makeStatusUseCase() -> any StatusUseCase { LocalStatusUseCase(store: store) }
    public func makeSearchUseCase() -> any SearchUseCase { LocalFileSearchUseCase(changes: LocalPostChangesUseCase(store: store)) }
    /// Another process may write the file: its change sequence is polled.
    public func makeWatchUseCase() -> any PostsWatchUseCase { PollingWatch(changes: makePostChangesUseCase(), interval: .seconds(1)) }

    /// `POSTS_DATABASE`, else `POSTS_DATA_DIR/posts.sqlite`, else
    /// `$XDG_DATA_HOME/posts/posts.sqlite`, else `~/.local/share/posts/posts.sqlite`.
    public static func defaultPath(environment: [String: String]) -> String {
        if let path = environment["POSTS_DATABASE"], !path.isEmpty { return path }
        if let directory = environment["POSTS_DATA_DIR"], !directory.isEmpty { return directory + "/posts.sqlite" }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty { return data + "/posts/posts.sqlite" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.local/share/posts/posts.sqlite"
    }
}

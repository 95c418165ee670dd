#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Settings {
    /// Where the posts are kept when nothing says otherwise:
    /// `POSTS_DATABASE`, else `POSTS_DATA_DIR/posts.sqlite`, else
    /// `$XDG_DATA_HOME/posts/posts.sqlite`, else `~/.local/share/posts/posts.sqlite`.
    public var defaultDatabasePath: String {
        if let path = environment["POSTS_DATABASE"], !path.isEmpty { return path }
        if let directory = environment["POSTS_DATA_DIR"], !directory.isEmpty { return directory + "/posts.sqlite" }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty { return data + "/posts/posts.sqlite" }
        let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
        return home + "/.local/share/posts/posts.sqlite"
    }
}

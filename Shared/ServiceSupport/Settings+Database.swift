#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Settings {
    /// Where this user's posts data lives when nothing says otherwise:
    /// `POSTS_DATA_DIR`, else `$XDG_DATA_HOME/posts`, else `~/.local/share/posts`.
    public var dataDirectory: String {
        if let directory = environment["POSTS_DATA_DIR"], !directory.isEmpty { return directory }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty { return data + "/posts" }
        let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
        return home + "/.local/share/posts"
    }

    /// Where the posts are kept when nothing says otherwise:
    /// `POSTS_DATABASE`, else `posts.sqlite` in `dataDirectory`.
    public var defaultDatabasePath: String {
        if let path = environment["POSTS_DATABASE"], !path.isEmpty { return path }
        return dataDirectory + "/posts.sqlite"
    }
}

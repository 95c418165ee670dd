#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Where the default ipc:// endpoints live: a private directory (mode 0700)
/// so no other user can connect to, or replace, our sockets.
///
/// `POSTS_RUNTIME_DIR` if set; else `$XDG_RUNTIME_DIR/posts`; else
/// `/tmp/posts-<uid>`.
public enum RuntimeDirectory {
    public static func path(environment: [String: String]) -> String {
        if let explicit = environment["POSTS_RUNTIME_DIR"], !explicit.isEmpty { return explicit }
        if let xdg = environment["XDG_RUNTIME_DIR"], !xdg.isEmpty { return xdg + "/posts" }
        return "/tmp/posts-\(getuid())"
    }

    /// Makes sure the directory of every ipc:// endpoint exists. A missing
    /// one is created with mode 0700. The runtime directory itself must
    /// belong to us and is kept at 0700; other existing directories the
    /// user named are left as they are.
    public static func prepare(endpoints: [String], environment: [String: String]) throws {
        let runtime = path(environment: environment)
        for endpoint in endpoints where endpoint.hasPrefix("ipc://") {
            let file = String(endpoint.dropFirst("ipc://".count))
            guard !file.hasPrefix("@") else { continue }  // Linux abstract namespace: no file
            let directory = file.lastIndex(of: "/").map { $0 == file.startIndex ? "/" : String(file[..<$0]) } ?? ""
            try prepare(directory: directory.isEmpty ? "." : directory, isRuntime: directory == runtime)
        }
    }

    static func prepare(directory path: String, isRuntime: Bool) throws {
        guard let info = try FileSecurity.status(path) else {
            try FileSecurity.makeDirectory(path)
            return
        }
        guard isRuntime else { return }
        if info.st_uid != getuid() {
            throw ConfigurationError("runtime directory \(path) belongs to another user; set POSTS_RUNTIME_DIR to a directory of yours")
        }
        guard chmod(path, 0o700) == 0 else {
            throw ConfigurationError("cannot set the mode of runtime directory \(path): \(String(cString: strerror(errno)))")
        }
    }
}

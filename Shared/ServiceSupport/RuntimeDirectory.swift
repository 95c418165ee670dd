import Foundation

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
            let directory = (file as NSString).deletingLastPathComponent
            try prepare(directory: directory.isEmpty ? "." : directory, isRuntime: directory == runtime)
        }
    }

    static func prepare(directory path: String, isRuntime: Bool) throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            try manager.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            return
        }
        guard isDirectory.boolValue else { throw ConfigurationError("\(path) exists and is not a directory") }
        guard isRuntime else { return }
        let attributes = try manager.attributesOfItem(atPath: path)
        if let owner = attributes[.ownerAccountID] as? NSNumber, owner.uint32Value != getuid() {
            throw ConfigurationError("runtime directory \(path) belongs to another user; set POSTS_RUNTIME_DIR to a directory of yours")
        }
        try manager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
    }
}

/// A setting that cannot be used, with the value and what to do about it.
public struct ConfigurationError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

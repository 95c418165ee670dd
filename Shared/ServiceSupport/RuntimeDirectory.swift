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

    /// Creates the directory (and parents) with mode 0700, or tightens an
    /// existing one of ours to 0700. Refuses one owned by someone else.
    @discardableResult
    public static func prepare(environment: [String: String]) throws -> String {
        let path = path(environment: environment)
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw ConfigurationError("runtime directory \(path) exists and is not a directory") }
            let attributes = try manager.attributesOfItem(atPath: path)
            if let owner = attributes[.ownerAccountID] as? NSNumber, owner.uint32Value != getuid() {
                throw ConfigurationError("runtime directory \(path) belongs to another user; set POSTS_RUNTIME_DIR to a directory of yours")
            }
            try manager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
        } else {
            try manager.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        return path
    }
}

/// A setting that cannot be used, with the value and what to do about it.
public struct ConfigurationError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

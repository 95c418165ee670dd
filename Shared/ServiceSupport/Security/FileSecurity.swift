import Foundation

/// Files and directories only their owner may read: made so whatever the
/// umask, and checked before a secret is trusted.
public enum FileSecurity {
    /// Creates `path` (and missing parents) with mode 0700; an existing
    /// directory is left as it is.
    public static func makeDirectory(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw ConfigurationError("\(path) exists and is not a directory") }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            // createDirectory applies the umask to intermediate directories but
            // not always the mode to the last: say it again.
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
        } catch {
            throw ConfigurationError("cannot create directory \(path): \(error.localizedDescription)")
        }
    }

    /// Writes a file that must not exist yet, with exactly `mode`.
    public static func writeNew(_ path: String, contents: String, mode: mode_t) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw ConfigurationError("cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard fchmod(fd, mode) == 0 else { throw ConfigurationError("cannot set the mode of \(path): \(String(cString: strerror(errno)))") }
        let bytes = Array(contents.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(fd) == 0 else {
            throw ConfigurationError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Reads a file holding a secret; refuses one another user owns or that
    /// group or others may read.
    public static func readOwnerOnly(_ path: String, what: String) throws -> String {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw ConfigurationError("\(what) \(path): \(String(cString: strerror(errno)))")
        }
        guard info.st_uid == getuid() else {
            throw ConfigurationError("\(what) \(path) belongs to another user (uid \(info.st_uid)); use a key of your own")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw ConfigurationError("\(what) \(path) may be read by others (mode \(String(info.st_mode & 0o777, radix: 8))); run chmod 600 \(path)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError("cannot read \(what) \(path)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

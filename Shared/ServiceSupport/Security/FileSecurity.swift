#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Files and directories only their owner may read: made so whatever the
/// umask, and checked before a secret is trusted.
public enum FileSecurity {
    /// Creates `path` (and missing parents) with mode 0700; an existing
    /// directory is left as it is.
    public static func makeDirectory(_ path: String) throws {
        if let info = try status(path) {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw ConfigurationError("\(path) exists and is not a directory") }
            return
        }
        var made = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            made += component
            // mkdir applies the umask: the mode is set again below.
            guard mkdir(made, 0o700) == 0 || errno == EEXIST else {
                throw ConfigurationError("cannot create directory \(made): \(String(cString: strerror(errno)))")
            }
            made += "/"
        }
        guard chmod(path, 0o700) == 0 else {
            throw ConfigurationError("cannot set the mode of directory \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// What stat(2) says of `path`, or nil when nothing is there.
    public static func status(_ path: String) throws -> stat? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            guard errno == ENOENT else { throw ConfigurationError("cannot look at \(path): \(String(cString: strerror(errno)))") }
            return nil
        }
        return info
    }

    /// The names in `directory` (not . and ..), or an error naming `what` it is.
    public static func names(in directory: String, what: String) throws -> [String] {
        guard let stream = opendir(directory) else {
            throw ConfigurationError("cannot read \(what) \(directory): \(String(cString: strerror(errno)))")
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
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

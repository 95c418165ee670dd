import Foundation

/// The posts are private: the database's directory is made 0700 and the
/// file 0600, whatever the umask, before SQLite opens it. SQLite gives the
/// -wal and -shm files the mode of the database, so they follow.
enum OwnerOnlyFiles {
    /// Makes the directory and an empty database file if they are missing.
    static func prepare(database path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            chmod(directory, 0o700)
        }
        // An empty file is an empty SQLite database; made here, its mode is ours.
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 {
            fchmod(fd, 0o600)
            close(fd)
        }
    }

    /// A warning when group or others may read an existing database (or its
    /// -wal or -shm): changed by nobody but the operator, but said at start.
    static func warning(database path: String) -> String? {
        let exposed = [path, path + "-wal", path + "-shm"].compactMap { file -> String? in
            var info = stat()
            guard stat(file, &info) == 0, info.st_mode & 0o077 != 0 else { return nil }
            return "\(file) (mode \(String(info.st_mode & 0o777, radix: 8)))"
        }
        guard !exposed.isEmpty else { return nil }
        return "other users may read the posts: \(exposed.joined(separator: ", ")); run chmod 600 on them"
    }
}

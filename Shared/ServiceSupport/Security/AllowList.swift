#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import ZeroMQ

/// The public keys a gateway admits: every `*.key` file in a directory
/// (the public halves `posts keys generate` writes). Read at start and
/// again on `reload()` (SIGHUP), so a key is added or removed without a
/// restart. Any thread.
public final class AllowList: Sendable {
    public let directory: String
    private let keys = Mutex<Set<String>>([])

    /// What a reading found: the keys, and the files that held none.
    public struct Reading: Sendable {
        public let keys: Set<String>
        public let problems: [String]
    }

    /// Reads the directory; throws if it cannot be read at all.
    public init(directory: String) throws {
        self.directory = directory
        try reload()
    }

    public func contains(_ publicKey: String) -> Bool {
        keys.withLock { $0.contains(publicKey) }
    }

    public var count: Int { keys.withLock { $0.count } }

    /// Reads the directory again and replaces the keys. If it cannot be
    /// read, the keys stay as they were and the error is thrown.
    @discardableResult
    public func reload() throws -> Reading {
        let reading = try Self.read(directory)
        keys.withLock { $0 = reading.keys }
        return reading
    }

    static func read(_ directory: String) throws -> Reading {
        let names: [String]
        do {
            names = try FileSecurity.names(in: directory, what: "the allow-list directory")
        } catch {
            throw ConfigurationError("\(error); make it with mkdir -m 700 and copy clients' NAME.key files into it")
        }
        var keys: Set<String> = []
        var problems: [String] = []
        for name in names.sorted() where name.hasSuffix(".key") {
            let path = directory + "/" + name
            guard let data = FileManager.default.contents(atPath: path),
                let key = KeyFiles.publicKey(in: String(decoding: data, as: UTF8.self))
            else {
                problems.append("\(Escaped.line(path)) holds no public key; skipped")
                continue
            }
            keys.insert(key)
        }
        return Reading(keys: keys, problems: problems)
    }
}

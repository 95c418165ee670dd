import Foundation

/// `postgres://user[:password]@host[:port]/database[?sslmode=…&sslrootcert=…]`
/// (or `postgresql://`), checked, with what is wrong named. The password is
/// never shown.
///
/// `sslmode`, as libpq reads it: `disable` (the default), `require`
/// (encrypted, the server not checked), `verify-ca` (its certificate signed
/// by a trusted CA), `verify-full` (that, and issued for `host`).
/// `sslrootcert` names the CA file to trust (else the system's).
public struct DatabaseURL: Sendable, Equatable, CustomStringConvertible {
    public enum TLSMode: String, Sendable, CaseIterable {
        case disable, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    public let host: String
    public let port: Int
    public let user: String
    public let password: String?
    public let database: String
    public let tls: TLSMode
    public let rootCertificate: String?

    public init(_ text: String) throws {
        guard let url = URLComponents(string: text), let scheme = url.scheme, ["postgres", "postgresql"].contains(scheme) else {
            throw DatabaseURLError("'\(Self.redacted(text))' is not a postgres:// URL (postgres://user:password@host:5432/database)")
        }
        guard let host = url.host, !host.isEmpty else { throw DatabaseURLError("'\(Self.redacted(text))' names no host") }
        guard let user = url.user, !user.isEmpty else {
            throw DatabaseURLError("'\(Self.redacted(text))' names no user (postgres://USER@host/database)")
        }
        let database = String(url.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw DatabaseURLError("'\(Self.redacted(text))' names no database (postgres://user@host/DATABASE)")
        }
        if let port = url.port, !(1...65535).contains(port) { throw DatabaseURLError("port \(port) in '\(Self.redacted(text))' is not 1 to 65535") }
        let items = url.queryItems ?? []
        for item in items where !["sslmode", "sslrootcert"].contains(item.name) {
            throw DatabaseURLError("'\(item.name)' in '\(Self.redacted(text))' is not a setting this client reads (sslmode, sslrootcert)")
        }
        let modeText = items.first { $0.name == "sslmode" }?.value ?? "disable"
        guard let mode = TLSMode(rawValue: modeText) else {
            throw DatabaseURLError("sslmode=\(modeText) is not one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        (self.host, self.port, self.user, self.password, self.database) = (host, url.port ?? 5432, user, url.password, database)
        (tls, rootCertificate) = (mode, items.first { $0.name == "sslrootcert" }?.value)
    }

    /// The URL with its password left out: safe for logs and status.
    public var description: String {
        "postgres://\(user)@\(host):\(port)/\(database)" + (tls == .disable ? "" : "?sslmode=\(tls.rawValue)")
    }

    /// Whether the posts would cross a network unencrypted: no TLS, to a
    /// host other than this one.
    public var isPlaintextAcrossNetwork: Bool {
        tls == .disable && !(host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]")
    }

    static func redacted(_ text: String) -> String {
        guard var url = URLComponents(string: text), url.password != nil else { return text }
        url.password = "***"
        return url.string ?? text
    }
}

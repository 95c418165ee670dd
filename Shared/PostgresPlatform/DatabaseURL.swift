import Foundation

/// `postgres://user[:password]@host[:port]/database` (or `postgresql://`),
/// checked, with what is wrong named. The password is never shown.
public struct DatabaseURL: Sendable, Equatable, CustomStringConvertible {
    public let host: String
    public let port: Int
    public let user: String
    public let password: String?
    public let database: String

    public init(_ text: String) throws {
        guard let url = URLComponents(string: text), let scheme = url.scheme, ["postgres", "postgresql"].contains(scheme) else {
            throw DatabaseURLError("'\(Self.redacted(text))' is not a postgres:// URL (postgres://user:password@host:5432/database)")
        }
        guard let host = url.host, !host.isEmpty else { throw DatabaseURLError("'\(Self.redacted(text))' names no host") }
        guard let user = url.user, !user.isEmpty else { throw DatabaseURLError("'\(Self.redacted(text))' names no user (postgres://USER@host/database)") }
        let database = String(url.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw DatabaseURLError("'\(Self.redacted(text))' names no database (postgres://user@host/DATABASE)")
        }
        if let port = url.port, !(1...65535).contains(port) { throw DatabaseURLError("port \(port) in '\(Self.redacted(text))' is not 1 to 65535") }
        if let mode = url.queryItems?.first(where: { $0.name == "sslmode" })?.value, mode != "disable" {
            throw DatabaseURLError("sslmode=\(mode): this build connects without TLS only (sslmode=disable); keep PostgreSQL on a private network or a local socket")
        }
        (self.host, self.port, self.user, self.password, self.database) = (host, url.port ?? 5432, user, url.password, database)
    }

    /// The URL with its password left out: safe for logs and status.
    public var description: String { "postgres://\(user)@\(host):\(port)/\(database)" }

    static func redacted(_ text: String) -> String {
        guard var url = URLComponents(string: text), url.password != nil else { return text }
        url.password = "***"
        return url.string ?? text
    }
}

public struct DatabaseURLError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

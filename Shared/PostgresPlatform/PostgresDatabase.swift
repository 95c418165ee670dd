import Domain
import Foundation
import Observability
import Logging
import PostgresNIO
import Synchronization

/// One PostgreSQL database, through a connection pool that runs for the
/// life of this object. Every call has a deadline: a server that went away
/// is "unavailable" within it, and the pool connects again by itself when
/// the server is back.
final class PostgresDatabase: Sendable {
    let location: String
    let url: DatabaseURL
    let client: PostgresClient
    let logger: Logger
    private let running: Task<Void, Never>
    /// How long a call may take before the store counts as unavailable.
    let callTimeout: Duration
    static let defaultCallTimeout = Duration.seconds(5)
    /// Each operation's time, when the process serves metrics.
    let timers: StoreTimers?
    /// The newest sequence this process's committed writes took (0 before
    /// the first): what a change notice announces, without a read.
    let headAfterWrites = Atomic<Int64>(0)

    /// Keeps what a write took, once it committed.
    func noteWrite(_ stamp: Stamp) {
        let sequence = stamp.sequence.load(ordering: .acquiring)
        if sequence > 0 { headAfterWrites.max(sequence, ordering: .releasing) }
    }

    init(url: DatabaseURL, callTimeout: Duration = defaultCallTimeout, timers: StoreTimers? = nil, logger: Logger) {
        location = url.description
        self.timers = timers
        self.callTimeout = callTimeout
        self.url = url
        var configuration = PostgresClient.Configuration(
            host: url.host, port: url.port, username: url.user,
            password: url.password, database: url.database, tls: Self.tls(url))
        configuration.options.minimumConnections = 0
        configuration.options.maximumConnections = 8
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.logger = logger
        running = Task { await client.run() }
    }

    deinit { running.cancel() }

    /// TLS as the URL's sslmode asks: never "prefer", which would fall back
    /// to plaintext without a word.
    static func tls(_ url: DatabaseURL) -> PostgresClient.Configuration.TLS {
        tlsSettings(url).map { .require($0) } ?? .disable
    }

    /// The TLS settings the URL's sslmode asks for; nil for `disable`.
    static func tlsSettings(_ url: DatabaseURL) -> TLSConfiguration? {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch url.tls {
        case .disable: return nil
        case .require: tls.certificateVerification = .none
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        if let root = url.rootCertificate { tls.trustRoots = .file(root) }
        return tls
    }

    /// Runs `body` in one transaction, every writer first taking the change
    /// sequence's row lock (`Schema.lockSequence`): writers are serialized,
    /// in one order, so they never deadlock and sequences commit in order.
    /// `operation` names it in `posts_store_duration_seconds`.
    func write<T: Sendable>(_ operation: StaticString, _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T)
        async throws(PostsError) -> T
    {
        try await call(operation) { [logger] in
            try await self.client.withTransaction(logger: logger) { connection in
                try await connection.query(Schema.lockSequence, logger: logger)
                return try await body(connection, logger)
            }
        }
    }

    /// Runs `body` in one read-only snapshot (REPEATABLE READ).
    func read<T: Sendable>(_ operation: StaticString, _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T)
        async throws(PostsError) -> T
    {
        try await call(operation) { [logger] in
            try await self.client.withTransaction(logger: logger) { connection in
                try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
                return try await body(connection, logger)
            }
        }
    }

    /// One statement, on its own (it is its own transaction and snapshot):
    /// one round trip. A write done this way must take its sequence in the
    /// statement's first step, so it locks in the same order as `write`.
    func statement<T: Sendable>(_ operation: StaticString, _ body: @escaping @Sendable (PostgresClient, Logger) async throws -> T)
        async throws(PostsError) -> T
    {
        try await call(operation) { [client, logger] in try await body(client, logger) }
    }

    /// `body`, within the call timeout, its failures as PostsError, timed as `operation`.
    private func call<T: Sendable>(_ operation: StaticString, _ body: @escaping @Sendable () async throws -> T) async throws(PostsError) -> T {
        try await timers.measure(operation) { () async throws(PostsError) in try await callWithin(body) }
    }

    private func callWithin<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws(PostsError) -> T {
        let (location, callTimeout) = (self.location, self.callTimeout)
        do {
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask { try await body() }
                group.addTask {
                    try await Task.sleep(for: callTimeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let value = first else {
                    throw PostsError.unavailable(
                        .store("no answer from PostgreSQL at \(location) within \(Int(callTimeout.components.seconds)) s"))
                }
                return value
            }
        } catch let error as PostsError {
            throw error
        } catch {
            throw Self.map(error, location: location)
        }
    }

    /// A server's answer to a statement is its own error; anything else
    /// (no connection, a closed one) means the store is unavailable.
    static func map(_ error: any Error, location: String) -> PostsError {
        if let transaction = error as? PostgresTransactionError {
            return map(
                transaction.closureError ?? transaction.commitError ?? transaction.beginError ?? transaction.rollbackError
                    ?? PostsError.failed("transaction failed"), location: location)
        }
        if let error = error as? PostsError { return error }
        guard let psql = error as? PSQLError else { return .failed("PostgreSQL at \(location): \(error)") }
        if let server = psql.serverInfo {
            let state = server[.sqlState] ?? ""
            let message = server[.message] ?? "\(psql.code)"
            // Serialization failures and deadlocks: another writer won; try again.
            if state == "40001" || state == "40P01" || state == "55P03" { return .busy(.store) }
            // The server is shutting down or starting, or out of connections.
            if state.hasPrefix("57P") || state == "53300" || state.hasPrefix("08") {
                return .unavailable(.store("PostgreSQL at \(location): \(message)"))
            }
            return .failed("PostgreSQL at \(location) refused a statement (\(state)): \(message)")
        }
        // No answer from the server: the connection's own error says why
        // (refused, a certificate not trusted, …).
        let why = psql.underlying.map { "\(psql.code): \($0)" } ?? "\(psql.code)"
        return .unavailable(.store("PostgreSQL at \(location): \(why)"))
    }
}

/// The sequence a write's statements took, noted as they run.
final class Stamp: Sendable {
    let sequence = Atomic<Int64>(0)

    func took(_ value: Int64) { sequence.max(value, ordering: .releasing) }
}

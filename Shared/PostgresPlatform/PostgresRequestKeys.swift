import Domain
import Logging
import PostgresNIO

/// Request keys in PostgreSQL (`RequestKey`, `KeyedWrite`), looked up and
/// recorded inside the write's own transaction. Every write holds the
/// sequence lock (`Schema.lockSequence`) until it commits, so two attempts
/// of one key, on two posts-service processes, cannot both miss the
/// lookup: the second waits for the first's commit and then finds its key.
enum PostgresRequestKeys {
    static func once<T>(
        _ key: RequestKey?, _ write: KeyedWrite, now: Int64, _ connection: PostgresConnection, logger: Logger,
        answer: (T) -> String, remembered decode: (String) -> T?, _ body: () async throws -> T
    ) async throws -> T {
        guard let key else { return try await body() }
        let oldest = now - Int64(RequestKey.remembered.components.seconds) * 1000
        let rows = try await connection.query(
            "SELECT operation, answer FROM request_key WHERE key = \(key.text) AND at_ms >= \(oldest)", logger: logger)
        for try await remembered in rows.decode((String, String).self) {
            return try write.replay(key, remembered: remembered, decode: decode)
        }
        let value = try await body()
        try await connection.query(
            """
            DELETE FROM request_key WHERE key IN (SELECT key FROM request_key WHERE at_ms < \(oldest) ORDER BY at_ms LIMIT \(RequestKey.prunedPerWrite))
            """, logger: logger)
        try await connection.query(
            """
            INSERT INTO request_key (key, operation, answer, at_ms) VALUES (\(key.text), \(write.operation), \(answer(value)), \(now))
            ON CONFLICT (key) DO UPDATE SET operation = excluded.operation, answer = excluded.answer, at_ms = excluded.at_ms
            """, logger: logger)
        return value
    }
}

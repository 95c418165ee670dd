import Crypto
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import ServiceSupport
import Synchronization
import UnixSignals

/// The API tokens the edge admits (`--tokens FILE`): one line per token,
/// its SHA-256 in hex, `read` or `write`, and a name (`posts-http token`
/// adds one). The file holds hashes, never tokens, like the CURVE
/// allow-list holds public keys. Read at start and again on SIGHUP, so a
/// token is added or revoked without a restart; a reading that fails
/// keeps the tokens as they were, and says why.
final class TokenList: Sendable {
    enum Access: String, Sendable { case read, write }

    struct Reading: Sendable {
        var tokens: [String: (access: Access, name: String)] = [:]
        /// Lines skipped, each with why.
        var problems: [String] = []
    }

    let path: String
    private let tokens = Mutex<[String: (access: Access, name: String)]>([:])

    /// Reads nothing yet: the first `reload()` does.
    init(path: String) { self.path = path }

    /// Who holds `token`, and what it may do; nil for a token not listed.
    func holder(of token: String) -> (access: Access, name: String)? {
        let hash = Self.hash(token)
        return tokens.withLock { $0[hash] }
    }

    @discardableResult
    func reload() throws -> Reading {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError("cannot read the token list \(path); make it with posts-http token NAME --tokens \(path)")
        }
        let reading = Self.parse(String(decoding: data, as: UTF8.self), path: path)
        tokens.withLock { $0 = reading.tokens }
        return reading
    }

    static func parse(_ text: String, path: String) -> Reading {
        var reading = Reading()
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let fields = line.split(whereSeparator: \.isWhitespace)
            guard let first = fields.first, !first.hasPrefix("#") else { continue }
            let hash = first.lowercased()
            guard hash.count == 64, hash.allSatisfy(\.isHexDigit), fields.count >= 2, let access = Access(rawValue: String(fields[1])) else {
                reading.problems.append("\(path):\(index + 1) is not 'SHA256-HEX read|write NAME'; skipped")
                continue
            }
            reading.tokens[hash] = (access, fields.count > 2 ? fields[2...].joined(separator: " ") : "line \(index + 1)")
        }
        return reading
    }

    /// SHA-256 in lowercase hex; once for every request, so without a
    /// formatter per byte.
    static func hash(_ token: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: SHA256.hash(data: Data(token.utf8)).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }

    /// A new token: 32 random bytes, base64url, prefixed so a leaked one
    /// is recognised for what it is.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let text = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        return "posts_" + text.replacingOccurrences(of: "=", with: "")
    }
}

/// Every request but the probes (`/healthz`, `/readyz`) shows a listed
/// token (`Authorization: Bearer TOKEN`): none or an unknown one is 401,
/// a `read` token asking to write is 403. RFC 6750's header says which.
struct TokenCheck<Context: RequestContext>: RouterMiddleware {
    let tokens: TokenList

    static var open: Set<String> { ["/healthz", "/readyz"] }
    static var reads: Set<HTTPRequest.Method> { [.get, .head, .options] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if Self.open.contains(request.uri.path) { return try await next(request, context) }
        guard let header = request.headers[.authorization], header.count > 7, header.prefix(7).lowercased() == "bearer " else {
            throw Self.refusal(401, "this edge asks for a token: send Authorization: Bearer TOKEN", challenge: #"Bearer realm="posts""#)
        }
        guard let holder = tokens.holder(of: String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)) else {
            throw Self.refusal(401, "the token is not on this edge's list", challenge: #"Bearer realm="posts", error="invalid_token""#)
        }
        if holder.access == .read && !Self.reads.contains(request.method) {
            throw Self.refusal(
                403, "the token '\(holder.name)' may read, not write",
                challenge: #"Bearer realm="posts", error="insufficient_scope", scope="write""#)
        }
        return try await next(request, context)
    }

    private static func refusal(_ status: Int, _ detail: String, challenge: String) -> HTTPError {
        HTTPError(.init(code: status), headers: [.wwwAuthenticate: challenge], message: detail)
    }
}

/// Reads the token list again on each SIGHUP, until the edge stops.
struct TokenReload: Service {
    let tokens: TokenList
    let logger: Logger

    func run() async throws {
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        await cancelWhenGracefulShutdown {
            for await _ in hangups { TokenReload.reload(tokens, logger: logger) }
        }
    }

    static func reload(_ tokens: TokenList, logger: Logger) {
        do {
            report(try tokens.reload(), of: tokens, logger: logger)
        } catch {
            logger.error("the token list was not read again; the tokens stay as they were", metadata: ["error": "\(error)"])
        }
    }

    /// What a reading found, said: the lines skipped, a list that admits
    /// nobody, and how many tokens it holds.
    static func report(_ reading: TokenList.Reading, of tokens: TokenList, logger: Logger) {
        for problem in reading.problems { logger.warning("\(problem)") }
        if reading.tokens.isEmpty {
            logger.warning("the token list admits nobody: every request but the probes is 401", metadata: ["file": "\(tokens.path)"])
        }
        logger.notice("tokens read", metadata: ["file": "\(tokens.path)", "tokens": "\(reading.tokens.count)"])
    }
}

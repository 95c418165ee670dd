import Foundation
import HTTPTypes
import Hummingbird
import Logging
import OpenAPIRuntime

/// Every failure the handlers do not answer themselves, as a problem
/// (application/problem+json) too: a request the document's types cannot
/// read (400, naming the field where it can), a content type it does not
/// take (415), and, from the router, an address or method it does not
/// serve (404, 405).
struct RequestProblems: ServerMiddleware {
    let logger: Logger

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        // The runtime reads a header it cannot decode as if it were absent:
        // a budget that says something else is refused here, not ignored.
        if let timeout = request.headerFields[Self.requestTimeout].flatMap(present) {
            do { _ = try Exchange.seconds(timeout) } catch { return ProblemBody.response(error) }
        }
        do {
            var (response, body) = try await next(request, body, metadata)
            // The runtime writes a header's value as a URI component
            // (percent-encoded, `"` as %22); a header carries it as it is.
            for name in Self.plainHeaders {
                if let value = response.headerFields[name] { response.headerFields[name] = value.removingPercentEncoding ?? value }
            }
            return (response, body)
        } catch let error as ServerError {
            let status = error.httpStatus.code
            guard status < 500 else {
                logger.error("request failed", metadata: ["operation": "\(operationID)", "error": "\(error.underlyingError)"])
                return ProblemBody.response(Problem(.failed("\(error.underlyingError)")))
            }
            let (detail, field) = Self.describe(error)
            return ProblemBody.response(
                Problem(
                    status: status, name: status == 415 ? "unsupported-media-type" : "invalid", title: error.httpStatus.reasonPhrase, detail: detail,
                    field: field))
        }
    }

    static let requestTimeout = HTTPField.Name("Request-Timeout")!

    /// The response headers the document declares.
    static let plainHeaders: [HTTPField.Name] = [.location, .eTag, .retryAfter, HTTPField.Name("Link")!]

    /// What was wrong, in words, and where when a decoder says where.
    static func describe(_ error: ServerError) -> (detail: String, field: String?) {
        guard let decoding = decodingError(in: error.underlyingError) else {
            let cause = "\(error.underlyingError)"
            return (cause == error.causeDescription ? cause : "\(error.causeDescription): \(cause)", nil)
        }
        func pointer(_ path: [any CodingKey]) -> String { "/" + path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "/") }
        switch decoding {
        case .typeMismatch(let type, let context): return ("\(pointer(context.codingPath)) must be \(Self.kind(type))", pointer(context.codingPath))
        case .valueNotFound(let type, let context):
            return ("\(pointer(context.codingPath)) must be \(Self.kind(type)), not null", pointer(context.codingPath))
        case .keyNotFound(let key, let context):
            let path = pointer(context.codingPath + [key])
            return ("\(path) is required", path)
        case .dataCorrupted(let context): return ("the body is not JSON of the documented form: \(context.debugDescription)", nil)
        @unknown default: return ("the body is not of the documented form", nil)
        }
    }

    /// The decoding error at the bottom of `error`, when there is one.
    private static func decodingError(in error: any Error) -> DecodingError? {
        if let decoding = error as? DecodingError { return decoding }
        for child in Mirror(reflecting: error).children {
            if let inner = child.value as? any Error, let decoding = decodingError(in: inner) { return decoding }
        }
        return nil
    }

    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int64.Type, is Int32.Type, is Int.Type: "an integer"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default: "an object of the documented form"
        }
    }
}

/// The router's own refusals as problems: an address the document has
/// not (404), or has but not for this method (405, with `Allow`).
struct RouterProblems<Context: RequestContext>: RouterMiddleware {
    let routes: Routes

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            var error = error
            let path = request.uri.path
            let methods = routes.methods(at: path)
            if error.status == .notFound, !methods.isEmpty {
                error = HTTPError(
                    .methodNotAllowed, headers: [.allow: methods.joined(separator: ", ")],
                    message: "\(request.method) is not served at \(path); it takes \(methods.joined(separator: ", "))")
            }
            let status = error.status.code
            let detail = error.body ?? (status == 404 ? "no such address: \(path)" : error.status.reasonPhrase)
            let name = [401: "unauthorized", 403: "forbidden", 404: "not-found", 405: "method-not-allowed", 413: "too-large"][status] ?? "refused"
            let (head, body) = ProblemBody.head(Problem(status: status, name: name, title: error.status.reasonPhrase, detail: detail))
            var headers = error.headers
            for field in head.headerFields { headers[field.name] = field.value }
            return Response(status: head.status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
    }
}

/// A problem written out by hand, where no operation's response can carry it.
enum ProblemBody {
    static func bytes(_ problem: Problem) -> [UInt8] {
        let schema = Components.Schemas.Problem(
            _type: problem.type, title: problem.title, status: Int32(problem.status), detail: problem.detail, field: problem.field)
        return Array((try? EdgeJSON.encoder().encode(schema)) ?? Data(#"{"type":"urn:posts:problem:failed","title":"Failed","status":500}"#.utf8))
    }

    static func head(_ problem: Problem) -> (HTTPResponse, [UInt8]) {
        var fields: HTTPFields = [.contentType: "application/problem+json"]
        if let retryAfter = problem.retryAfter { fields[.retryAfter] = String(retryAfter) }
        return (HTTPResponse(status: .init(code: problem.status), headerFields: fields), bytes(problem))
    }

    static func response(_ problem: Problem) -> (HTTPResponse, HTTPBody?) {
        let (head, bytes) = head(problem)
        return (head, HTTPBody(bytes))
    }
}

/// A request's body is read whole before any handler sees it, and at most
/// `bytes` of it (the generated code would read any length into memory):
/// past that, 413 and the connection's next request. A request that says
/// it has no body (HTTP/1.1: neither Content-Length nor Transfer-Encoding,
/// as a GET) has nothing to read, and is passed on as it is.
struct BodyLimit<Context: RequestContext>: RouterMiddleware {
    /// A post's most (2,000 bytes of title, 100,000 of content) written
    /// with every character escaped (`\u00XX`, six bytes), and room for the
    /// rest of the object.
    static var bytes: Int { 1 << 20 }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.headers[.contentLength] == nil, request.headers[.transferEncoding] == nil {
            return try await next(request, context)
        }
        var request = request
        let tooLarge = HTTPError(.contentTooLarge, message: "the body is over the limit of \(Self.bytes) bytes")
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > Self.bytes { throw tooLarge }
        do {
            _ = try await request.collectBody(upTo: Self.bytes)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw tooLarge
        }
        return try await next(request, context)
    }
}

/// How the edge writes JSON, wherever it writes it: keys sorted, slashes as
/// they are (the runtime's coders take the same, `options`).
enum EdgeJSON {
    static let options: JSONEncodingOptions = [.sortedKeys, .withoutEscapingSlashes]

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

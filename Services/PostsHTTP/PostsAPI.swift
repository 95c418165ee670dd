import Domain
import Foundation
import Logging
import OpenAPIRuntime

/// The HTTP edge's operations (the generated `APIProtocol`, one method per
/// operation of openapi.json): each reads its request, runs one of
/// Domain's use cases, and says the answer, or the use case's error, as
/// HTTP does. It holds no data of its own.
struct PostsAPI: APIProtocol {
    let posts: any PostsUseCase
    let search: any SearchUseCase
    let status: any StatusUseCase
    let changes: any PostChangesUseCase
    /// The newest change heard of, for the change streams.
    let heads: HeadBroadcast
    /// The change streams open, and how many may be.
    let subscribers: OpenCount
    /// A request's budget when it names none, and the most it may name.
    let timeout: Duration
    /// The OpenAPI document, as served.
    let document: OpenAPIObjectContainer
    let logger: Logger

    /// Serves one request: `work` within its budget and trace; a failure
    /// becomes the operation's problem response (`failed`, the
    /// operation's `default` case). `body` names the fields read from the
    /// request's body (see `Problem`).
    func serve<Output: Sendable>(
        _ operation: String, timeout: String?, traceparent: String?, body: Set<String> = [],
        failed: (Int, Components.Responses.Problem) -> Output, _ work: () async throws -> Output
    ) async -> Output {
        let problem: Problem
        do {
            let exchange = try Exchange(operation, timeout: timeout, traceparent: traceparent, fallback: self.timeout)
            return try await exchange.run { try await work() }
        } catch let error as Problem {
            problem = error
        } catch let error as PostsError {
            problem = Problem(error, body: body)
            if case .failed(let message) = error { logger.error("request failed", metadata: ["operation": "\(operation)", "error": "\(message)"]) }
        } catch {
            logger.error("request failed", metadata: ["operation": "\(operation)", "error": "\(error)"])
            problem = Problem(.failed("\(error)"))
        }
        return failed(problem.status, problem.response)
    }

    // MARK: reads

    func listPosts(_ input: Operations.ListPosts.Input) async throws -> Operations.ListPosts.Output {
        await serve(
            "GET /posts", timeout: input.headers.requestTimeout, traceparent: input.headers.traceparent, failed: { .default(statusCode: $0, $1) }
        ) {
            let limit = try Self.integer(input.query.limit, "limit")
            let page = try await posts.posts(limit: limit ?? PostRules.defaultPageSize, cursor: present(input.query.cursor))
            let link = page.nextCursor.map { "<\(Self.pageAddress(limit: limit, cursor: $0))>; rel=\"next\"" }
            return .ok(.init(headers: .init(link: link), body: .json(.init(page))))
        }
    }

    func getPost(_ input: Operations.GetPost.Input) async throws -> Operations.GetPost.Output {
        await serve(
            "GET /posts/{uid}", timeout: input.headers.requestTimeout, traceparent: input.headers.traceparent,
            failed: { .default(statusCode: $0, $1) }
        ) {
            let post = try await posts.post(uid: try PostRules.uid(input.path.uid))
            if let tags = present(input.headers.ifNoneMatch), ETag.matches(tags, post) {
                return .notModified(.init(headers: .init(eTag: ETag.of(post))))
            }
            return .ok(.init(headers: .init(eTag: ETag.of(post)), body: .json(.init(post))))
        }
    }

    func countPosts(_ input: Operations.CountPosts.Input) async throws -> Operations.CountPosts.Output {
        await serve(
            "GET /posts/count", timeout: input.headers.requestTimeout, traceparent: input.headers.traceparent,
            failed: { .default(statusCode: $0, $1) }
        ) {
            .ok(.init(body: .json(.init(count: Int64(try await posts.count())))))
        }
    }

    func search(_ input: Operations.Search.Input) async throws -> Operations.Search.Output {
        await serve(
            "GET /search", timeout: input.headers.requestTimeout, traceparent: input.headers.traceparent, failed: { .default(statusCode: $0, $1) }
        ) {
            let results = try await search.search(
                input.query.q, limit: try Self.integer(input.query.limit, "limit"), offset: try Self.integer(input.query.offset, "offset"))
            return .ok(.init(body: .json(.init(results))))
        }
    }

    func getStatus(_ input: Operations.GetStatus.Input) async throws -> Operations.GetStatus.Output {
        await serve(
            "GET /status", timeout: input.headers.requestTimeout, traceparent: input.headers.traceparent, failed: { .default(statusCode: $0, $1) }
        ) {
            .ok(.init(body: .json(.init(try await status.status()))))
        }
    }

    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        .ok(.init(body: .json(.init(status: "ok"))))
    }

    /// Ready when the gateway answers and the posts service has a worker.
    func getReadiness(_ input: Operations.GetReadiness.Input) async throws -> Operations.GetReadiness.Output {
        await serve("GET /readyz", timeout: nil, traceparent: nil, failed: { .default(statusCode: $0, $1) }) {
            let status = try await status.status()
            guard status.services.contains(where: { $0.name == "posts" && $0.processes > 0 }) else {
                throw PostsError.unavailable(.noWorker(service: "posts"))
            }
            return .ok(.init(body: .json(.init(status: "ready"))))
        }
    }

    func getOpenAPIDocument(_ input: Operations.GetOpenAPIDocument.Input) async throws -> Operations.GetOpenAPIDocument.Output {
        .ok(.init(body: .json(document)))
    }

    // MARK: parameters

    /// An integer parameter as a use case takes it; out of `Int`'s range
    /// only on a 32-bit machine, and then refused naming it.
    static func integer(_ value: Int64?, _ name: String) throws(Problem) -> Int? {
        guard let value else { return nil }
        guard let integer = Int(exactly: value) else { throw Problem.invalid(name, "\(name) is out of range (got \(value))") }
        return integer
    }

    /// The address of the page after the one asked for.
    static func pageAddress(limit: Int?, cursor: String) -> String {
        var components = URLComponents()
        components.path = "/posts"
        components.queryItems = (limit.map { [URLQueryItem(name: "limit", value: String($0))] } ?? []) + [URLQueryItem(name: "cursor", value: cursor)]
        // `+` stays literal in a query, where a form decoder reads a space.
        return (components.string ?? "/posts").replacingOccurrences(of: "+", with: "%2B")
    }
}

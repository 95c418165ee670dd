import OpenAPIRuntime

/// The document's addresses and the methods each takes: to tell a wrong
/// method (405) from a wrong address (404), and to name a request's route
/// in metrics by its template (`/posts/{uid}`), never by the uid in it.
struct Routes: Sendable {
    private struct Route {
        let template: String
        /// `{uid}`: any one segment.
        let segments: [Substring]
        let methods: [String]
    }

    private let routes: [Route]

    init(document: OpenAPIObjectContainer) {
        let paths = document.value["paths"] as? [String: (any Sendable)?] ?? [:]
        let verbs = ["get", "put", "post", "delete", "patch"]
        // Literal segments before templated ones: /posts/count is not /posts/{uid}.
        routes = paths.map { path, item in
            let operations = item as? [String: (any Sendable)?] ?? [:]
            return Route(
                template: path, segments: path.split(separator: "/"), methods: verbs.filter { operations[$0] != nil }.map { $0.uppercased() })
        }.sorted { $0.segments.filter { $0.hasPrefix("{") }.count < $1.segments.filter { $0.hasPrefix("{") }.count }
    }

    /// The methods served at `path`; none when the document has no such address.
    func methods(at path: String) -> [String] { route(at: path)?.methods ?? [] }

    /// The document's template for `path` (`/posts/{uid}`), nil when it has none.
    func template(of path: String) -> String? { route(at: path)?.template }

    private func route(at path: String) -> Route? {
        let segments = path.split(separator: "/")
        return routes.first { route in
            route.segments.count == segments.count && zip(route.segments, segments).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
        }
    }
}

import Hummingbird
import Metrics
import Observability

/// Each request counted and timed (`--metrics`): by method, by route (the
/// document's template, `unmatched` for an address it has not) and, for
/// the count, by status. A label never carries what a client chose freely:
/// a method the edge does not know is `_OTHER`, a uid is its template. A
/// change stream is timed to its response's head, not for as long as it
/// stays open.
struct RequestMetrics<Context: RequestContext>: RouterMiddleware {
    let routes: Routes

    static var methods: Set<String> { ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let method = Self.methods.contains(request.method.rawValue) ? request.method.rawValue : "_OTHER"
        let route = routes.template(of: request.uri.path) ?? "unmatched"
        func record(_ status: Int) {
            let labels = [("method", method), ("route", route)]
            Counter(label: MetricCatalog.httpRequests.name, dimensions: labels + [("status", String(status))]).increment()
            CoreMetrics.Timer(label: MetricCatalog.httpDuration.name, dimensions: labels).record(duration: .now - start)
        }
        do {
            let response = try await next(request, context)
            record(response.status.code)
            return response
        } catch let error as HTTPError {
            record(error.status.code)
            throw error
        } catch {
            record(500)
            throw error
        }
    }
}

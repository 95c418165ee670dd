import Domain
import OpenAPIRuntime

/// `GET /posts/changes`: the change feed as Server-Sent Events.
extension PostsAPI {
    func streamChanges(_ input: Operations.StreamChanges.Input) async throws -> Operations.StreamChanges.Output {
        await serve("GET /posts/changes", timeout: nil, traceparent: input.headers.traceparent, failed: { .default(statusCode: $0, $1) }) {
            let after: Int64
            if let last = present(input.headers.lastEventID) {
                guard let sequence = Int64(last.trimmingCharacters(in: .whitespaces)), sequence >= 0 else {
                    throw Problem.invalid("Last-Event-ID", "Last-Event-ID must be an event's id, a change sequence (got '\(last)')")
                }
                after = sequence
            } else if let sequence = input.query.after {
                guard sequence >= 0 else { throw Problem.invalid("after", "after must be a change sequence, 0 or more (got \(sequence))") }
                after = sequence
            } else {
                after = try await changes.head()
            }
            guard let subscription = Subscription(subscribers) else {
                throw Problem.busy("\(subscribers.limit) change streams are open already, the most this edge serves (--max-streams)")
            }
            let events = ChangeEvents(changes: changes, heads: heads, after: after, subscription: subscription, logger: logger)
            return .ok(
                .init(
                    headers: .init(cacheControl: "no-store"),
                    body: .textEventStream(HTTPBody(events, length: .unknown, iterationBehavior: .single))))
        }
    }
}

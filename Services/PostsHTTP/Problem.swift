import Domain

/// A failure as HTTP says it (RFC 9457, application/problem+json): one
/// status for each Domain error, a type that names the kind, words for a
/// person, and the input at fault. Never a 5xx for something the client
/// sent: a 5xx is the system's own failure or absence.
struct Problem: Error, Equatable {
    var status: Int
    /// The last part of the type's URN (`urn:posts:problem:NAME`).
    var name: String
    var title: String
    var detail: String
    /// A JSON pointer into the body (`/title`), or a query parameter's,
    /// path parameter's or header's name.
    var field: String?
    /// Seconds a client should wait before trying again (429, 503).
    var retryAfter: Int?

    init(status: Int, name: String, title: String, detail: String, field: String? = nil, retryAfter: Int? = nil) {
        (self.status, self.name, self.title, self.detail, self.field, self.retryAfter) = (status, name, title, detail, field, retryAfter)
    }

    /// The problem for a use case's error. `body` names the fields that
    /// come from the request's body (a 422 when invalid, named by JSON
    /// pointer); every other invalid field is a parameter's (400).
    init(_ error: PostsError, body: Set<String> = []) {
        switch error {
        case .invalid(let invalid):
            if Self.isRequestKey(invalid.field) {
                // Malformed keys are refused before the call (400); a key
                // that comes back refused was used for another write.
                self.init(
                    status: 422, name: "idempotency-key-reused", title: "Idempotency-Key used for another request",
                    detail: "Idempotency-Key \(invalid.rule)", field: "Idempotency-Key")
            } else if body.contains(invalid.field) {
                self.init(
                    status: 422, name: "invalid", title: "Invalid input", detail: invalid.description, field: "/\(invalid.field)")
            } else {
                self.init(status: 400, name: "invalid", title: "Invalid input", detail: invalid.description, field: invalid.field)
            }
        case .notFound:
            self.init(status: 404, name: "not-found", title: "Not found", detail: error.description)
        case .conflict:
            self = .changed("\(error.description); read it again (its ETag) and send the change with the new If-Match")
        case .tooLarge:
            self.init(status: 413, name: "too-large", title: "Too large", detail: error.description)
        case .busy:
            self = .busy(error.description)
        case .unavailable(let outage):
            self.init(status: 503, name: "unavailable", title: "Unavailable", detail: outage.description, retryAfter: Self.retryAfter(outage))
        case .timeout:
            self.init(status: 504, name: "timeout", title: "Timeout", detail: error.description)
        case .failed:
            self.init(status: 500, name: "failed", title: "Failed", detail: "the request failed inside the system; the edge's log says why")
        }
    }

    /// The request key, as the use case or the service names it.
    private static func isRequestKey(_ field: String) -> Bool {
        field == RequestKey.field || field.hasSuffix(".\(RequestKey.field)")
    }

    /// Whether trying again soon may help, and when.
    private static func retryAfter(_ outage: Outage) -> Int? {
        switch outage {
        case .permissionDenied, .notAdmitted: nil
        case .noAnswer, .noWorker, .shuttingDown, .interrupted, .store: 1
        }
    }

    /// An input the client sent that no use case reads (a header, a
    /// parameter's form): 400, naming it.
    static func invalid(_ field: String, _ detail: String) -> Problem {
        Problem(status: 400, name: "invalid", title: "Invalid input", detail: detail, field: field)
    }

    /// The post is not as the client read it (412).
    static func changed(_ detail: String) -> Problem {
        Problem(status: 412, name: "changed", title: "Changed since read", detail: detail)
    }

    /// Too much is going on now; try again in a second (503).
    static func busy(_ detail: String) -> Problem {
        Problem(status: 503, name: "busy", title: "Busy", detail: detail, retryAfter: 1)
    }

    var type: String { "urn:posts:problem:\(name)" }

    /// As the document's schema and response say it.
    var response: Components.Responses.Problem {
        Components.Responses.Problem(
            headers: .init(retryAfter: retryAfter.map(String.init)),
            body: .applicationProblemJson(.init(_type: type, title: title, status: Int32(status), detail: detail, field: field)))
    }
}

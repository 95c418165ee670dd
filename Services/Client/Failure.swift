import ArgumentParser
import Domain
import Foundation
import Observability
import ServiceSupport
import Tracing
import ZeroMQ

/// How a failure ends the process: a one-line message, a hint where one
/// helps, and an exit code.
enum Failure {
    static func exitCode(for error: PostsError) -> Int32 {
        switch error {
        case .invalid: 65
        case .notFound: 3
        case .conflict: 5
        case .unavailable(.permissionDenied), .unavailable(.notAdmitted): 6
        case .unavailable, .busy, .timeout: 4
        case .tooLarge, .failed: 1
        }
    }

    /// What a person can do about it: the hints are the executable's, not Domain's.
    static func hint(for error: PostsError) -> String? {
        switch error {
        case .unavailable(.noAnswer):
            "is it running? Start everything with `make run`, or point POSTS_GATEWAY / --gateway at it"
        case .unavailable(.noWorker(let service)):
            "start \(service)-service (`make run` starts everything)"
        case .unavailable(.permissionDenied):
            "the gateway runs as another user: run posts as that user, or start your own (POSTS_RUNTIME_DIR / POSTS_GATEWAY)"
        case .unavailable(.notAdmitted):
            "a client needs its own key (POSTS_CURVE_KEY, made by `posts keys generate NAME`) and the gateway's public key (POSTS_GATEWAY_KEY); "
                + "the gateway's operator copies the client's NAME.key into the allow-list directory and sends the gateway SIGHUP"
        case .conflict:
            "load it again (posts show) and redo the change"
        case .timeout:
            "a slow or stuck service: see `posts status`, or give --timeout more seconds"
        default:
            nil
        }
    }

    /// One line; what the error carries came from a peer, so it is escaped.
    static func message(for error: PostsError) -> String {
        "posts: \(Escaped.line(error.description))" + (hint(for: error).map { "; \($0)" } ?? "")
    }

    /// Runs a command body; a PostsError becomes its message and exit code.
    static func guarded(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as PostsError {
            StandardError.write(message(for: error) + "\n")
            throw ExitCode(exitCode(for: error))
        }
    }
}

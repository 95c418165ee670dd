import ArgumentParser
import Domain
import Foundation
import Observability
import ServiceSupport
import Tracing
import ZeroMQ

@main
struct PostsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "posts",
        abstract: "Manage posts: through the gateway, or on a SQLite file with --local.",
        discussion: """
            On a terminal, `posts` with no arguments opens the full-screen interface
            (`posts ui`); the commands below are for scripts and quick use.

            Talks to the gateway at POSTS_GATEWAY (default ipc://<runtime dir>/gateway.ipc;
            start everything with `make run`). With --local PATH it runs the same use
            cases on a SQLite file, with no services at all.

            Exit codes: 0 done; 64 bad usage; 65 invalid input (an empty title, say);
            3 not found; 4 unavailable (no gateway, no worker, busy, timed out);
            5 conflict (edit: the post changed elsewhere meanwhile); 6 not allowed (the
            gateway refused this client's CURVE key, or wants one; or its socket is
            another user's); 1 anything else.

            Across hosts (tcp://) every connection uses CURVE: POSTS_CURVE_KEY (this
            client's secret-key file) and POSTS_GATEWAY_KEY (the gateway's public key),
            or --curve-key and --gateway-key; `posts keys generate NAME` makes keys.
            """,
        subcommands: [
            ListCommand.self, ShowCommand.self, CreateCommand.self, EditCommand.self,
            DeleteCommand.self, SearchCommand.self, StatusCommand.self, TopCommand.self, ImportCommand.self, UICommand.self,
            KeysCommand.self,
        ]
    )

    /// A command-line tool logs only errors (POSTS_LOG_LEVEL to see more), so
    /// what it prints on stderr is its own one-line messages.
    ///
    /// With OTEL_EXPORTER_OTLP_ENDPOINT set, each command is the root span
    /// of its trace (`posts create`), and its spans are sent before it exits.
    static func main() async {
        let settings = Settings()
        let level = (try? settings.logLevel(nil, default: .error)) ?? .error
        var export: SpanExport?
        do {
            // No arguments on a terminal: the full-screen interface; otherwise help.
            let arguments = Array(CommandLine.arguments.dropFirst())
            var command = try parseAsRoot(arguments.isEmpty && Terminal.isInteractive ? ["ui"] : arguments)
            if command is UICommand { LogSetup.silence() } else { LogSetup.bootstrap(level: level) }
            // Not logged: a command-line tool's stderr is its own messages.
            DescriptorLimit.raise()
            export = try SpanExport.start(serviceName: "posts", environment: settings.environment)
            let name = "posts " + (type(of: command).configuration.commandName ?? "")
            if let asyncCommand = command as? any AsyncParsableCommand {
                // Run once, here and nowhere else: the command crosses into the span's task-local scope alone.
                nonisolated(unsafe) var running = asyncCommand
                try await withSpan(name) { _ in try await running.run() }
            } else {
                try command.run()
            }
            await export?.finish()
        } catch {
            await export?.finish()
            exit(withError: error)
        }
    }
}

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

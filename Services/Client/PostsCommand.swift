import ArgumentParser
import Domain
import Foundation
import Observability
import ServiceSupport
import SystemSupport
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
            DeleteCommand.self, CountCommand.self, SearchCommand.self, StatusCommand.self, TopCommand.self, ImportCommand.self, UICommand.self,
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

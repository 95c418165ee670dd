import ArgumentParser
import Domain
import Foundation
import ServiceSupport

struct UICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ui",
        abstract: "Open the full-screen interface (also: `posts` with no arguments, on a terminal).",
        discussion: """
            Browse, read, write, edit and delete posts, search as you type, and watch
            the services' status. Keys are shown at the bottom of every screen; Ctrl-C
            or q on the list quits. The list follows changes made elsewhere.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        guard Terminal.isInteractive else {
            StandardError.write("posts ui: needs a terminal (standard input and output); for scripts use the commands in `posts --help`\n")
            throw ExitCode(64)
        }
        try await Failure.guarded {
            let provider = try connection.provider()
            try await UIApp(provider: provider, source: connection.local ?? connection.endpoints.joined(separator: ",")).run()
        }
    }
}

import Foundation
import TestSupport
import Testing
import Wire
import ZeroMQ

/// The full-screen interface, driven like a person would in a real terminal
/// (tmux: send-keys, capture-pane), against real services.
@Suite("Full-screen interface in tmux", .serialized, .timeLimit(.minutes(5)))
struct TerminalUITests {
    /// A tmux server of the test's own, with one window running `command`.
    struct Tmux {
        let harness: ProcessHarness
        var socket: String { "\(harness.directory)/tmux.sock" }
        static let path = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }

        /// Runs a tmux command and returns what it printed (through a file:
        /// the server tmux starts would hold a pipe open).
        func run(_ arguments: [String]) async throws -> CommandResult {
            try await onOwnThread { try runBlocking(arguments) }
        }

        @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
        private func runBlocking(_ arguments: [String]) throws -> CommandResult {
            guard let path = Self.path else { throw HarnessError("tmux is not installed; deploy/setup installs it") }
            let output = "\(harness.directory)/tmux.out"
            try? FileManager.default.removeItem(atPath: output)
            let client = try Spawned(path, ["-S", socket] + arguments, environment: harness.environment, output: output, errors: "/dev/null")
            guard let status = client.wait(within: .seconds(10)) else {
                client.killAndReap()
                throw HarnessError("tmux \(arguments) did not finish within 10 s")
            }
            return CommandResult(status: status, stdout: (try? String(contentsOfFile: output, encoding: .utf8)) ?? "", stderr: "")
        }

        /// Stops the server and the interface in it, on the calling thread
        /// (the harness's, as it shuts down).
        @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
        func killServer() { _ = try? runBlocking(["kill-server"]) }

        func keys(_ keys: String...) async throws { _ = try await run(["send-keys", "-t", "ui"] + keys) }
        func type(_ text: String) async throws { _ = try await run(["send-keys", "-t", "ui", "-l", text]) }
        func screen() async throws -> String { try await run(["capture-pane", "-p", "-t", "ui"]).stdout }

        /// Waits until the screen shows `text`; on failure, records what it showed.
        func waitFor(_ text: String, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let shown = await eventually(within: .seconds(15)) { (try? await screen().contains(text)) ?? false }
            if !shown {
                Issue.record("\(comment): waited for “\(text)”, the screen shows:\n\(try await screen())", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func test_createAPost_seeItListed_findItByPartOfAWord_deleteIt() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startPostsSystem(context: context)
        _ = try await harness.startSearchService("search-1", context: context)
        let tmux = Tmux(harness: harness)
        harness.atShutdown { tmux.killServer() }
        // `posts` with no arguments, on a terminal, opens the interface.
        let posts = ProcessHarness.binaries.appendingPathComponent("posts").path
        let exit = "\(harness.directory)/ui.exit"
        // Written aside and renamed, so the file is never seen empty.
        let command = "env POSTS_RUNTIME_DIR=\(harness.directory) \(posts); echo $? > \(exit).part && mv \(exit).part \(exit)"
        #expect(try await tmux.run(["new-session", "-d", "-s", "ui", "-x", "120", "-y", "30", command]).status == 0)

        try await tmux.waitFor("No posts yet", "the list opens, empty")
        try await tmux.keys("n")
        try await tmux.waitFor("Title", "n opens the new-post screen")
        try await tmux.type("Quokka on the ferry")
        try await tmux.keys("Tab")
        try await tmux.type("A very photogenic marsupial")
        try await tmux.keys("C-s")
        try await tmux.waitFor("1 posts", "saved, the screen closes and the list shows it")
        #expect(try await tmux.screen().contains("Quokka on the ferry"))
        #expect(try await harness.posts(["list"]).stdout.contains("Quokka on the ferry"), "it really was saved")

        try await tmux.keys("/")
        try await tmux.waitFor("Type words", "/ opens search")  // keys sent sooner would reach the list
        try await tmux.type("photog")
        try await tmux.waitFor("1 found", "search as you type finds it by part of a word")
        #expect(try await tmux.screen().contains("Quokka on the ferry"))
        try await tmux.keys("Enter")
        try await tmux.waitFor("uid ", "Enter opens the post")
        try await tmux.keys("d")
        try await tmux.waitFor("y / n", "delete asks first")
        try await tmux.keys("y")
        try await tmux.waitFor("No posts match", "after the delete, search no longer finds it")
        try await tmux.keys("Escape")
        try await tmux.waitFor("No posts yet", "back on the list, the post is gone")
        #expect(try await harness.posts(["list", "--json"]).json?["posts"] == .array([]))

        try await tmux.keys("q")
        let quit = await eventually { FileManager.default.fileExists(atPath: exit) }
        #expect(quit, "q on the list quits")
        let status = (try? String(contentsOfFile: exit, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(status == "0", "the interface exits 0 on q, it exited with \(status ?? "nothing written")")
    }
}

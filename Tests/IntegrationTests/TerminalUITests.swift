import Foundation
import Testing
import Wire
import ZeroMQ

/// The full-screen interface, driven like a person would in a real terminal
/// (tmux: send-keys, capture-pane), against real services.
@Suite("Full-screen interface in tmux", .serialized)
struct TerminalUITests {
    /// A tmux server of the test's own, with one window running `command`.
    struct Tmux {
        let harness: ProcessHarness
        var socket: String { "\(harness.directory)/tmux.sock" }
        static let path = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }

        /// Runs a tmux command and returns what it printed. Spawned and
        /// waited for directly: Foundation's Process never saw the tmux client
        /// exit once it had forked its server, and output goes through a file
        /// because that server would hold a pipe open.
        func run(_ arguments: [String]) async throws -> CommandResult {
            try await offThread { try runBlocking(arguments) }
        }

        private func runBlocking(_ arguments: [String]) throws -> CommandResult {
            guard let path = Self.path else { throw HarnessError("tmux is not installed; deploy/setup installs it") }
            let output = "\(harness.directory)/tmux.out"
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            let argv = ([path, "-S", socket] + arguments).map { strdup($0) } + [nil]
            let envp = harness.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { (argv + envp).forEach { free($0) } }
            // A clean signal state: a child otherwise inherits this thread's
            // blocked signals, and tmux's event loop relies on them.
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var none = sigset_t(), all = sigset_t()
            sigemptyset(&none)
            sigfillset(&all)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setsigdefault(&attributes, &all)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
            guard spawned == 0 else { throw HarnessError("cannot start tmux: error \(spawned)") }
            var status: Int32 = 0
            let deadline = ContinuousClock.now + .seconds(10)
            while waitpid(pid, &status, WNOHANG) == 0 {
                guard ContinuousClock.now < deadline else {
                    kill(pid, SIGKILL)
                    waitpid(pid, &status, 0)
                    throw HarnessError("tmux \(arguments) did not finish within 10 s")
                }
                usleep(10_000)
            }
            let stdout = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            return CommandResult(status: (status >> 8) & 0xFF, stdout: stdout, stderr: "")
        }

        /// Stops the server (for a `defer`, which cannot wait): a plain signal to its pid.
        func killServer() {
            let pid = (try? String(contentsOfFile: "\(harness.directory)/tmux.pid", encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            if let pid { kill(pid, SIGTERM) }
        }

        func keys(_ keys: String...) async throws { _ = try await run(["send-keys", "-t", "ui"] + keys) }
        func type(_ text: String) async throws { _ = try await run(["send-keys", "-t", "ui", "-l", text]) }
        func screen() async throws -> String { try await run(["capture-pane", "-p", "-t", "ui"]).stdout }

        /// Waits until the screen shows `text`; on failure, records what it showed.
        func waitFor(_ text: String, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let shown = await eventually(within: .seconds(15)) { (try? await screen().contains(text)) ?? false }
            if !shown { Issue.record("\(comment): waited for “\(text)”, the screen shows:\n\(try await screen())", sourceLocation: sourceLocation) }
        }
    }

    @Test func test_createAPost_seeItListed_findItByPartOfAWord_deleteIt() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startPostsSystem(context: context)
        _ = try await harness.startSearchService("search-1", context: context)
        let tmux = Tmux(harness: harness)
        defer { tmux.killServer() }
        // `posts` with no arguments, on a terminal, opens the interface.
        let posts = ProcessHarness.binaries.appendingPathComponent("posts").path
        let exit = "\(harness.directory)/ui.exit"
        let command = "env POSTS_RUNTIME_DIR=\(harness.directory) \(posts); echo $? > \(exit)"
        #expect(try await tmux.run(["new-session", "-d", "-s", "ui", "-x", "120", "-y", "30", command]).status == 0)
        let server = try await tmux.run(["display-message", "-p", "-t", "ui", "#{pid}"]).stdout
        try server.write(toFile: "\(harness.directory)/tmux.pid", atomically: true, encoding: .utf8)

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
        #expect((try? String(contentsOfFile: exit, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }
}

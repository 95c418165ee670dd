import Foundation
import TestSupport
import Testing
import ZeroMQ

/// The CLI rides out a gateway restart within its --timeout, and names a
/// permission problem as one.
@Suite("posts CLI and the gateway's restarts", .serialized, .timeLimit(.minutes(5)))
struct CLIThroughRestartTests {
    @Test func test_rightAfterAGatewayRestart_theCLIWaitsForWorkersToRegisterAgain_insteadOfFailing() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        let heartbeat = ["--heartbeat-interval", "1s"]
        try await harness.startGateway(heartbeat, context: context)
        try await harness.startPostsService("posts-service", sessions: 2, ["--heartbeat-interval", "1s"], context: context)
        #expect(try await harness.posts(["create", "--title", "Before the restart", "--content", "x"]).status == 0)
        await harness.kill("gateway")
        try await harness.startGateway(heartbeat, name: "gateway-2", context: context)
        // At once: posts-service has not registered with the new gateway yet.
        let list = try await harness.posts(["list", "--timeout", "10"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("Before the restart"))
    }

    @Test(.enabled(if: getuid() == 0, "runs the CLI as another user, which needs root"))
    func test_aGatewayOfAnotherUser_isAPermissionProblem_notAnOutage() async throws {
        let harness = try ProcessHarness()  // its runtime directory is 0700, owned by root
        defer { harness.shutdown() }
        try await harness.startGateway(context: try Context())
        let log = harness.logPath("nobody")
        // A copy `nobody` can run, wherever the build lives (a checkout under
        // a private home directory would not be reachable).
        let shared = try makeTemporaryDirectory("pt-cli")
        defer { try? FileManager.default.removeItem(atPath: shared) }
        chmod(shared, 0o755)
        let posts = shared + "/posts"
        // Copied by `cp`, not in this process: a file this process held open
        // for writing could be inherited by a child another test spawns
        // meanwhile, and exec would then fail with "Text file busy".
        let copy = try Spawned(
            "/bin/cp", [ProcessHarness.binaries.appendingPathComponent("posts").path, posts],
            environment: harness.environment, output: "/dev/null", errors: "/dev/null")
        defer { copy.killInBackground() }  // a no-op once it has exited; never left behind
        #expect(await copy.exit(within: .seconds(30)) == 0)
        let cli = try Spawned(
            "/usr/sbin/runuser", ["-u", "nobody", "--", posts, "list", "--timeout", "3"],
            environment: harness.environment, output: log, errors: log)
        defer { cli.killInBackground() }
        let status = await cli.exit(within: .seconds(20))
        let output = harness.log("nobody")
        #expect(status == 6, "a permission problem has its own exit code: \(output)")
        #expect(output.contains("permission denied") && output.contains(harness.gatewayEndpoint), "\(output)")
    }
}

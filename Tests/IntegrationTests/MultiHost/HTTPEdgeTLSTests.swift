import Foundation
import TestSupport
import Testing
import Wire
import ZeroMQ

/// The HTTP edge off loopback, as docs/HTTP.md sets it up: on host A's
/// address with TLS and a token list, asked by curl from host B (network
/// namespaces). The services stay on A's ipc:// sockets.
@Suite(
    "MultiHost: the HTTP edge with TLS and tokens", .serialized,
    .enabled(if: NetworkLab.isAvailable, "needs root and iproute2 (ip netns)"), .timeLimit(.minutes(5))
)
struct HTTPEdgeTLSTests {
    @Test func test_offLoopback_TLSAndTokens_admitOnlyListedTokens_writesOnlyWithWrite_andSIGHUPRereadsTheList() async throws {
        let harness = try ProcessHarness()
        let lab = try await NetworkLab.open(hosts: ["a", "b"])
        defer {
            harness.shutdown()
            lab.remove()
        }
        try await harness.startPostsSystem(context: try Context())
        let address = lab.hubAddress(for: "b")

        // A certificate for A's address, and its key readable by its owner alone.
        let (cert, key) = (harness.directory + "/edge.pem", harness.directory + "/edge.key")
        let made = try await harness.run(
            "/usr/bin/env",
            [
                "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
                "-subj", "/CN=posts-edge", "-addext", "subjectAltName=IP:\(address)", "-keyout", key, "-out", cert,
            ])
        #expect(made.status == 0, "openssl (deploy/setup --test): \(made.stderr)")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)

        // Tokens: one that writes, one that reads.
        let tokens = harness.directory + "/tokens"
        func token(_ name: String, write: Bool) async throws -> String {
            let made = try await harness.run("posts-http", ["token", name, "--tokens", tokens] + (write ? ["--write"] : []))
            #expect(made.status == 0, "\(made.stderr)")
            return made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let writer = try await token("deploy", write: true)
        let reader = try await token("dashboard", write: false)
        let list = try String(contentsOfFile: tokens, encoding: .utf8)
        #expect(writer.hasPrefix("posts_") && !list.contains(writer) && !list.contains(reader), "the list keeps hashes only")

        // Off loopback with TLS but no tokens: refused at start.
        let refused = try harness.start(
            "refused", "posts-http", ["--listen", "\(address):0", "--tls-cert", cert, "--tls-key", key], wrapper: lab.wrapper("a"))
        #expect(try #require(await refused.exit(within: .seconds(20))) != 0)
        #expect(harness.log("refused").contains("without TLS and tokens"), "\(harness.log("refused"))")

        let edge = try await harness.startHTTPEdge(
            "posts-http", ["--tls-cert", cert, "--tls-key", key, "--tokens", tokens], listen: "\(address):0", wrapper: lab.wrapper("a"))
        #expect(edge.base.hasPrefix("https://\(address):"), "\(edge.base)")

        // From B: curl, checking the certificate against the one A made.
        func curl(_ method: String, _ path: String, token: String?, body: String? = nil, scheme: String = "https") async throws -> (
            status: Int, text: String
        ) {
            var arguments = ["curl", "-s", "-S", "--max-time", "20", "--cacert", cert, "-X", method, "-w", "\n%{http_code}", "-D", "-"]
            if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
            if let body { arguments += ["-H", "Content-Type: application/json", "--data", body] }
            let url = edge.base.replacingOccurrences(of: "https://", with: "\(scheme)://") + path
            let run = try await harness.run("/usr/bin/env", arguments + [url], wrapper: lab.wrapper("b"))
            let status = Int(run.stdout.split(separator: "\n").last ?? "") ?? 0
            return (status, run.stdout + run.stderr)
        }

        #expect(try await curl("GET", "/healthz", token: nil).status == 200, "the probes need no token")
        let anonymous = try await curl("GET", "/posts", token: nil)
        #expect(anonymous.status == 401 && anonymous.text.lowercased().contains("www-authenticate: bearer"), "\(anonymous.text)")
        #expect(anonymous.text.contains("application/problem+json"), "\(anonymous.text)")
        let stranger = try await curl("GET", "/posts", token: "posts_not-on-the-list")
        #expect(stranger.status == 401 && stranger.text.contains("invalid_token"), "\(stranger.text)")
        #expect(try await curl("GET", "/posts", token: reader).status == 200)
        let readOnly = try await curl("POST", "/posts", token: reader, body: #"{"title":"From a reader"}"#)
        #expect(readOnly.status == 403 && readOnly.text.contains("insufficient_scope"), "\(readOnly.text)")
        let written = try await curl("POST", "/posts", token: writer, body: #"{"title":"Over TLS"}"#)
        #expect(written.status == 201, "\(written.text)")
        #expect(try await harness.run("posts", ["list", "--json"]).stdout.contains("Over TLS"))
        #expect(!(try await harness.run("posts", ["list", "--json"]).stdout.contains("From a reader")), "a refused write saved nothing")
        // Plain HTTP to the TLS port is not served.
        #expect(try await curl("GET", "/posts", token: reader, scheme: "http").status != 200)

        // A token added while it runs is admitted after SIGHUP; one deleted is refused after it.
        let late = try await token("late", write: false)
        #expect(try await curl("GET", "/posts", token: late).status == 401, "not before SIGHUP")
        let edgeProcess = try #require(harness.process("posts-http"))
        edgeProcess.signal(SIGHUP)
        #expect(await eventually(within: .seconds(10), every: .milliseconds(200)) { (try? await curl("GET", "/posts", token: late).status) == 200 })
        let kept = try String(contentsOfFile: tokens, encoding: .utf8).split(separator: "\n").filter { !$0.hasSuffix(" dashboard") }
        try (kept.joined(separator: "\n") + "\n").write(toFile: tokens, atomically: true, encoding: .utf8)
        edgeProcess.signal(SIGHUP)
        #expect(await eventually(within: .seconds(10), every: .milliseconds(200)) { (try? await curl("GET", "/posts", token: reader).status) == 401 })
        #expect(try await curl("GET", "/posts", token: writer).status == 200)
    }
}

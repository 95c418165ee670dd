import Foundation
import Testing
import ZeroMQ

/// README.md's "A 60-second tour", run line by line as a person would
/// paste it, against real processes: every line must succeed and show
/// something (an empty search result, "No posts match.", shows nothing).
@Suite("README tour", .serialized, .timeLimit(.minutes(5)))
struct ReadmeTourTests {
    /// The tour's shell lines, in order, without comments and blank lines.
    static func tourLines() throws -> [String] {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let tour = text.range(of: "## A 60-second tour"), let start = text.range(of: "```sh\n", range: tour.upperBound..<text.endIndex),
            let end = text.range(of: "```", range: start.upperBound..<text.endIndex)
        else {
            throw HarnessError("README.md has no \"A 60-second tour\" with a ```sh block")
        }
        return text[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.hasPrefix("#") }
    }

    @Test func test_everyLineOfTheTourSucceeds_andShowsSomething() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startPostsSystem(context: context)
        _ = try await harness.startSearchService("search-1", context: context)
        // The HTTP lines ask the edge at its default address; here it is on a free port.
        let edge = try await harness.startHTTPEdge()
        let lines = try Self.tourLines()
        #expect(lines.contains { $0.contains("localhost:8080") }, "the tour shows the HTTP edge")
        #expect(lines.count >= 10)
        // Each line runs in one shell (so `uid` carries over), in the
        // harness's directory instead of /tmp, with our binaries on PATH.
        var script = "cd '\(harness.directory)'\n"
        for line in lines where !line.hasPrefix("export PATH=") {
            let local = line.replacingOccurrences(of: "/tmp/", with: "\(harness.directory)/")
                .replacingOccurrences(of: "localhost:8080", with: edge.base.replacingOccurrences(of: "http://", with: ""))
            let quoted = local.replacingOccurrences(of: "'", with: #"'\''"#)
            script += """
                eval '\(quoted)' > tour.out 2>&1; status=$?; cat tour.out
                if [ $status -ne 0 ] || [ ! -s tour.out ] || grep -q "^No posts match" tour.out; then
                    echo "TOUR-FAILED (status $status, output $(wc -c < tour.out) bytes): \(quoted)"
                fi

                """
        }
        try script.write(toFile: "\(harness.directory)/tour.sh", atomically: true, encoding: .utf8)
        let path = ProcessHarness.binaries.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let run = try await harness.run(
            "/bin/bash", ["\(harness.directory)/tour.sh"], limit: .seconds(60), without: ["POSTS_LOG_LEVEL"],
            environment: ["PATH": path])
        #expect(!run.stdout.contains("TOUR-FAILED"), "\(run.stdout)\(run.stderr)")
    }
}

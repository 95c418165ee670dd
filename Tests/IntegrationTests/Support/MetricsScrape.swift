import Foundation
import TestSupport

extension ProcessHarness {
    /// The `http://host:port/metrics` a process logged when it bound its
    /// metrics endpoint (`--metrics 127.0.0.1:0`).
    func metricsURL(of name: String) async -> String? {
        var found: String?
        _ = await eventually {
            found =
                log(name).split(separator: "\n").lazy.compactMap { line -> String? in
                    guard let range = line.range(of: "metrics at ") else { return nil }
                    return String(line[range.upperBound...]).trimmingCharacters(in: .whitespaces)
                }.first
            return found != nil
        }
        return found
    }

    /// An HTTP GET, by a program other than ours (Python's urllib).
    func fetch(_ url: String) async throws -> CommandResult {
        try await run(
            "/usr/bin/env",
            ["python3", "-c", "import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())", url])
    }

    /// `promtool check metrics` on what `url` serves: its status, and what it said.
    func promtoolCheck(_ url: String) async throws -> CommandResult {
        let page = try await fetch(url)
        return try await run("/usr/bin/env", ["promtool", "check", "metrics"], input: page.stdout)
    }
}

/// A sample's value in Prometheus text, for the series whose line starts
/// with `series` (name and labels as written).
func sample(_ series: String, in text: String) -> Double? {
    text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
}

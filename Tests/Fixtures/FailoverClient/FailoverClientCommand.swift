import ArgumentParser
import Domain
import Foundation
import NetworkPlatform
import ServiceSupport

/// Test fixture for the failover checker: several clients, each with its
/// own connection to the gateways (POSTS_GATEWAY, a list), making creates,
/// edits-if-unchanged of posts any of them made, deletes and searches for
/// `--duration` seconds, and recording every operation as a line of JSON
/// in `--history`: what was asked, when (wall clock, ms), and how it ended:
/// `ok`, `fail` (known not done: a conflict, no such post) or `info`
/// (not known: no answer, or an answer that says it may have been done).
/// It stops at `--duration`, or sooner once `--stop-file` exists, each
/// client after the operation in hand.
@main
struct FailoverClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "failover-client", abstract: "Records a history of operations through the gateways (a fixture for the failover checker).")

    @Option(help: "File to write the history to (JSON lines).") var history: String
    @Option(help: "Clients, each with its own connection.") var clients = 4
    @Option(help: "Seconds to run at most.") var duration: Double = 30
    @Option(help: "Stop once this file exists.") var stopFile: String?
    @Option(help: "Seconds each request may take (its budget).") var timeout: Double = 3
    @OptionGroup var curve: CurveOptions

    func run() async throws {
        let settings = Settings()
        let endpoints = Endpoints.gateways(environment: settings.environment)
        let security = try curve.resolve(settings, endpoints: endpoints).security
        let log = try HistoryLog(path: history)
        let shared = SharedPosts()
        let end = Date().addingTimeInterval(duration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<clients {
                let platform = try NetworkPlatform.connect(endpoints: endpoints, timeout: .milliseconds(Int64(timeout * 1000)), security: security)
                let client = CheckedClient(number: number, provider: UseCaseProvider(platform), log: log, shared: shared)
                group.addTask { [stopFile] in
                    try await client.run { Date() >= end || stopFile.map { FileManager.default.fileExists(atPath: $0) } == true }
                }
            }
            try await group.waitForAll()
        }
        log.close()
    }
}

import ArgumentParser
import Domain
import Foundation

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List posts, newest first.")

    @OptionGroup var connection: ConnectionOptions
    @Option(help: "Posts per page (1-500).") var limit = 20
    @Option(help: "Where to continue: the cursor a previous page printed.") var cursor: String?

    func validate() throws {
        guard PostRules.pageSize.contains(limit) else {
            throw ValidationError("--limit must be from \(PostRules.pageSize.lowerBound) to \(PostRules.pageSize.upperBound), not \(limit)")
        }
    }

    func run() async throws {
        try await Failure.guarded {
            let page = try await connection.provider().makePostsUseCase().posts(limit: limit, cursor: cursor)
            if connection.json { return Output.json(PageOutput(posts: page.posts, nextCursor: page.nextCursor)) }
            if page.posts.isEmpty { return print(cursor == nil ? "No posts yet. Add one: posts create --title \"Hello\"" : "No more posts.") }
            Output.table(["UID", "TITLE", "CREATED"], page.posts.map {
                [$0.uid.uuidString, Output.shorten($0.title, to: 48), Output.relative($0.createDate)]
            })
            if let next = page.nextCursor {
                let size = limit == 20 ? "" : " --limit \(limit)"
                print("\nMore: posts list\(connection.placeArguments)\(size) --cursor \(next)")
            }
        }
    }
}

struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one post.")

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "The post's uid.") var uid: String

    func run() async throws {
        try await Failure.guarded {
            let post = try await connection.provider().makePostsUseCase().post(uid: try PostRules.uid(uid))
            if connection.json { return Output.json(post) }
            print(post.title)
            print("uid \(post.uid.uuidString) · created \(Output.relative(post.createDate)) · updated \(Output.relative(post.updateDate))")
            if !post.content.isEmpty { print("\n\(post.content)") }
        }
    }
}

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the services and their workers.")

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        try await Failure.guarded {
            let status = try await connection.provider().makeStatusUseCase().status()
            if connection.json { return Output.json(StatusOutput(status)) }
            print("Source: \(status.source)" + (status.uptimeSeconds.map { String(format: " (up %.0f s)", $0) } ?? ""))
            if let posts = status.posts { print("Posts: \(posts)") }
            if !status.services.isEmpty {
                print("")
                Output.table(["SERVICE", "WORKERS", "QUEUED", "REQUESTS", "REFUSED", "P50", "P99"], status.services.map {
                    [$0.name, "\($0.workers)", "\($0.queued)", "\($0.requests)", "\($0.errors)",
                     $0.p50Milliseconds.map { String(format: "%.2f ms", $0) } ?? "-",
                     $0.p99Milliseconds.map { String(format: "%.2f ms", $0) } ?? "-"]
                })
            }
            if !status.searchIndexes.isEmpty {
                print("")
                Output.table(["SEARCH WORKER (PID)", "DOCUMENTS", "APPLIED", "LAG"], status.searchIndexes.map {
                    ["\($0.worker)", "\($0.documents)", "\($0.applied)", "\($0.lag)"]
                })
            }
            if !status.workers.isEmpty {
                print("")
                Output.table(["WORKER", "SERVICE", "STATE", "HANDLED", "LAST HEARD"], status.workers.map {
                    [$0.identity, $0.service, $0.busy ? "busy" : "idle", "\($0.handled)", String(format: "%.0f ms ago", $0.lastHeardMilliseconds)]
                })
            } else if status.posts == nil {
                print("\nNo workers are registered. Start them with `make run`.")
            }
        }
    }
}

/// The JSON shape of `posts status --json`.
struct StatusOutput: Encodable {
    struct Service: Encodable { let name: String; let workers, queued, requests, errors: Int; let p50Ms, p99Ms: Double? }
    struct Worker: Encodable { let identity, service, state: String; let handled: Int; let lastHeardMs: Double }
    struct SearchIndex: Encodable { let worker: Int32; let documents: Int; let applied, lag: Int64 }
    let source: String
    let uptimeSeconds: Double?
    let posts: Int?
    let services: [Service]
    let workers: [Worker]
    let searchIndexes: [SearchIndex]

    init(_ status: SystemStatus) {
        source = status.source
        uptimeSeconds = status.uptimeSeconds
        posts = status.posts
        services = status.services.map {
            Service(name: $0.name, workers: $0.workers, queued: $0.queued, requests: $0.requests, errors: $0.errors,
                    p50Ms: $0.p50Milliseconds, p99Ms: $0.p99Milliseconds)
        }
        workers = status.workers.map {
            Worker(identity: $0.identity, service: $0.service, state: $0.busy ? "busy" : "idle", handled: $0.handled, lastHeardMs: $0.lastHeardMilliseconds)
        }
        searchIndexes = status.searchIndexes.map { SearchIndex(worker: $0.worker, documents: $0.documents, applied: $0.applied, lag: $0.lag) }
    }
}

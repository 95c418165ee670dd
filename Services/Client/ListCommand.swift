import ArgumentParser
import Domain
import Foundation
import ServiceSupport

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List posts, newest first.")

    @OptionGroup var connection: ConnectionOptions
    @Option(help: "Posts per page (1-500).") var limit = 20
    @Option(help: "Where to continue: the cursor a previous page printed.") var cursor: String?

    /// Domain's rule, asked before anything is opened, so a bad flag is a usage error (exit 64).
    func validate() throws {
        do { _ = try PostRules.validatedLimit(limit, field: "--limit") } catch { throw ValidationError("\(error)") }
    }

    func run() async throws {
        try await Failure.guarded {
            let page = try await connection.provider().makePostsUseCase().posts(limit: limit, cursor: cursor)
            if connection.json { return Output.json(PageOutput(posts: page.posts, nextCursor: page.nextCursor)) }
            if page.posts.isEmpty { return print(cursor == nil ? "No posts yet. Add one: posts create --title \"Hello\"" : "No more posts.") }
            Output.table(
                ["UID", "TITLE", "CREATED"],
                page.posts.map {
                    [$0.uid.uuidString, Output.shorten($0.title, to: 48), Output.relative($0.createDate)]
                })
            if let next = page.nextCursor {
                let size = limit == 20 ? "" : " --limit \(limit)"
                print("\nMore: posts list\(connection.placeArguments)\(size) --cursor \(next)")
            }
        }
    }
}

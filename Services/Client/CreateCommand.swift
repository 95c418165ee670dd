import ArgumentParser
import Domain
import Foundation

struct CreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Create a post.",
        discussion: "Content comes from --content, --content-file (- for standard input), or standard input when it is a pipe or a file.")

    @OptionGroup var connection: ConnectionOptions
    @Option(help: "The title (1-200 characters).") var title: String
    @OptionGroup var body: ContentOptions
    @OptionGroup var retry: KeyOptions

    func run() async throws {
        try await Failure.guarded {
            let content = try await body.read(pipedInput: true) ?? ""
            // Under a key, the post's uid comes from it: the same post on every attempt.
            let key = try retry.key()
            let post = try await connection.provider().makePostsUseCase().save(
                Post(uid: key?.derivedUID ?? UUID(), title: title, content: content), key: key)
            if connection.json { return Output.json(post) }
            print(post.uid.uuidString)
        }
    }
}

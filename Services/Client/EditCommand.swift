import ArgumentParser
import Domain
import Foundation

struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: "Change a post's title or content.")

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "The post's uid.") var uid: String
    @Option(help: "The new title.") var title: String?
    @OptionGroup var body: ContentOptions
    @OptionGroup var retry: KeyOptions

    func validate() throws {
        guard title != nil || body.given else {
            throw ValidationError("nothing to change: give --title, --content or --content-file (- for standard input)")
        }
    }

    func run() async throws {
        try await Failure.guarded {
            let posts = try connection.provider().makePostsUseCase()
            let read = try await posts.post(uid: try PostRules.uid(uid))
            let saved = try await posts.edit(read, title: title, content: try await body.read(pipedInput: false), key: try retry.key())
            if connection.json { return Output.json(saved) }
            print("Updated \(saved.uid.uuidString)")
        }
    }
}

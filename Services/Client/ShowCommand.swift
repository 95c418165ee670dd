import ArgumentParser
import Domain
import Foundation
import ServiceSupport

struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one post.")

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "The post's uid.") var uid: String

    func run() async throws {
        try await Failure.guarded {
            let post = try await connection.provider().makePostsUseCase().post(uid: try PostRules.uid(uid))
            if connection.json { return Output.json(post) }
            print(Escaped.line(post.title))
            print("uid \(post.uid.uuidString) · created \(Output.relative(post.createDate)) · updated \(Output.relative(post.updateDate))")
            if !post.content.isEmpty { print("\n\(Escaped.text(post.content))") }
        }
    }
}

import ArgumentParser
import Domain
import Foundation

struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a post.")

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "The post's uid.") var uid: String
    @OptionGroup var retry: KeyOptions

    func run() async throws {
        try await Failure.guarded {
            let target = try PostRules.uid(uid)
            let deleted = try await connection.provider().makePostsUseCase().delete(uid: target, key: try retry.key())
            if connection.json { Output.json(["deleted": deleted]) } else if deleted { print("Deleted \(target.uuidString)") }
            if !deleted { throw PostsError.notFound(uid: target) }
        }
    }
}

import ArgumentParser
import Domain
import Foundation

struct CountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "count", abstract: "Count the posts.")

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        try await Failure.guarded {
            let count = try await connection.provider().makePostsUseCase().count()
            if connection.json { Output.json(["count": count]) } else { print(count) }
        }
    }
}

import ArgumentParser
import Domain
import Foundation
import ServiceSupport

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the services, their processes and search lag.")

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        try await Failure.guarded {
            let status = try await connection.provider().makeStatusUseCase().status()
            if connection.json { return Output.json(status) }
            StatusTable.summary(for: status).forEach { print(Escaped.line($0)) }
            for table in StatusTable.tables(for: status) {
                print("")
                Output.table(table.columns.map(\.title), table.rows)
            }
            if status.processes.isEmpty && status.posts == nil {
                print("\nNo processes serve any service. Start them with `make run`.")
            }
        }
    }
}

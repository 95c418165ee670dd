import ArgumentParser
import Domain
import Foundation
import ServiceSupport

struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Search posts by words (the last may be unfinished) or \"quoted phrases\".")

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "What to look for.") var words: [String]
    @Option(help: "Hits per page (1-500).") var limit = 20
    @Option(help: "Hits to skip.") var offset = 0

    func validate() throws {
        guard !words.joined().trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("give something to search for") }
        // Domain's rules, asked before anything is opened, so a bad flag is a usage error (exit 64).
        do {
            _ = try SearchRules.validated(query: words.joined(separator: " "), limit: limit, offset: offset)
        } catch .invalid(let invalid) {
            throw ValidationError((invalid.field == "q" ? "the search words " : "--\(invalid.field) ") + invalid.rule)
        }
    }

    func run() async throws {
        try await Failure.guarded {
            let results = try await connection.provider().makeSearchUseCase().search(words.joined(separator: " "), limit: limit, offset: offset)
            if connection.json { return Output.json(results) }
            if results.hits.isEmpty { return print("No posts match.") }
            for hit in results.hits {
                let title = Escaped.line(hit.title)
                print("\(Output.isTerminal ? "\u{1B}[1m\(title)\u{1B}[0m" : title)  \(hit.uid.uuidString)")
                let flat = hit.snippet.replacingOccurrences(of: "\n", with: " ")  // same length: highlights stay put
                print("  " + Output.highlighted(flat, hit.highlights))
            }
            let shown = offset + results.hits.count
            let total = results.totalIsExact ? "\(results.total)" : "at least \(results.total)"
            print("\n\(shown) of \(total)" + (shown < results.total ? "; more with --offset \(shown)" : ""))
        }
    }
}

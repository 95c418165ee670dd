import ArgumentParser
import Domain
import Foundation

struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Search posts by words (the last may be unfinished) or \"quoted phrases\".")

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "What to look for.") var words: [String]
    @Option(help: "Hits per page (1-500).") var limit = 20
    @Option(help: "Hits to skip.") var offset = 0

    func validate() throws {
        guard !words.joined().trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("give something to search for") }
        guard PostRules.pageSize.contains(limit) else { throw ValidationError("--limit must be from 1 to 500, not \(limit)") }
        guard offset >= 0 else { throw ValidationError("--offset must be 0 or more, not \(offset)") }
    }

    func run() async throws {
        try await Failure.guarded {
            let results = try await connection.provider().makeSearchUseCase().search(words.joined(separator: " "), limit: limit, offset: offset)
            if connection.json { return Output.json(SearchOutput(results)) }
            if results.hits.isEmpty { return print("No posts match.") }
            for hit in results.hits {
                print("\(Output.isTerminal ? "\u{1B}[1m\(hit.title)\u{1B}[0m" : hit.title)  \(hit.uid.uuidString)")
                print("  " + Output.highlighted(hit.snippet, hit.highlights).replacingOccurrences(of: "\n", with: " "))
            }
            let shown = offset + results.hits.count
            print("\n\(shown) of \(results.total)" + (shown < results.total ? "; more with --offset \(shown)" : ""))
        }
    }
}

/// The JSON shape of `posts search --json`.
struct SearchOutput: Encodable {
    struct Hit: Encodable { let uid: UUID; let title, snippet: String; let highlights: [[Int]]; let score: Double }
    let hits: [Hit]
    let total: Int
    let sequence: Int64

    init(_ results: SearchResults) {
        hits = results.hits.map {
            Hit(uid: $0.uid, title: $0.title, snippet: $0.snippet, highlights: $0.highlights.map { [$0.lowerBound, $0.upperBound] }, score: $0.score)
        }
        total = results.total
        sequence = results.sequence
    }
}

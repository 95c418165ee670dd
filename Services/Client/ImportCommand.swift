import ArgumentParser
import Domain
import Foundation
import ServiceSupport
import Synchronization

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import posts from a JSON or JSON Lines file.",
        discussion: """
            The file holds a JSON array of posts, or one post per line (JSON Lines).
            A post is {"title", "content"}, optionally with "uid" (a UUID: importing
            again updates instead of duplicating) and "createDate" (ISO 8601). The
            common sample-data shape {"userId", "id", "title", "body"} works too; its
            uid is derived from userId and id, so importing it again duplicates
            nothing either. A uid given twice is one post: the later entry wins.
            Use - to read standard input. If any entry is invalid, nothing is
            written; if the system fails part way, the posts already written stay,
            and the message says how many.
            """)

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: ArgumentHelp("The file, or - for standard input.", valueName: "file")) var file: String

    func run() async throws {
        try await Failure.guarded {
            let data: Data
            if file == "-" {
                data = await StandardInput.readToEnd()
            } else {
                guard let contents = FileManager.default.contents(atPath: file) else { throw PostsError.invalid("file", .unreadable(path: file)) }
                data = contents
            }
            let entries = try ImportReader.entries(from: data)
            let provider = try connection.provider()
            let progress = Progress(quiet: connection.json)
            let saved: Int
            do {
                saved = try await provider.makePostsUseCase().importPosts(entries) { saved, total in progress.update(saved, of: total) }
                progress.finish()
            } catch {
                progress.finish()
                StandardError.write("posts: import stopped after \(progress.saved) posts were saved\n")
                throw error
            }
            // A local search index is brought up to date now, so the first search is quick.
            try await provider.prepareSearch()
            if connection.json { Output.json(["imported": saved]) } else { print("Imported \(saved) post\(saved == 1 ? "" : "s").") }
        }
    }
}

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
                data = FileHandle.standardInput.readDataToEndOfFile()
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

/// Reads the entries of an import file (a JSON array or JSON Lines): only
/// the format; what an entry means is Domain's `ImportRules`.
enum ImportReader {
    struct Entry: Decodable {
        var uid: String?
        var userId: Int64?
        var id: Int64?
        var title: String?
        var content: String?
        var body: String?
        var createDate: String?
    }

    static func entries(from data: Data) throws(PostsError) -> [ImportEntry] {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        var items: [(label: String, data: Data)] = []
        if data.first(where: { !isSpace($0) }) == UInt8(ascii: "[") {
            guard let array = try? JSONSerialization.jsonObject(with: data) as? [Any] else {
                throw .invalid("file", .malformed("starts like a JSON array but is not valid JSON"))
            }
            for (index, element) in array.enumerated() {
                guard JSONSerialization.isValidJSONObject(element), let item = try? JSONSerialization.data(withJSONObject: element) else {
                    throw .invalid("entry \(index + 1)", .malformed("is not a JSON object"))
                }
                items.append(("entry \(index + 1)", item))
            }
        } else {
            // Raw bytes, not Characters: splitting 100 MB of text by grapheme,
            // or even through Data's generic split, is what made imports slow.
            data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                var start = 0
                var number = 1
                while start <= bytes.count {
                    let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
                    let line = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
                    if !line.allSatisfy(isSpace) { items.append(("line \(number)", Data(line))) }
                    start = end + 1
                    number += 1
                }
            }
        }
        let decoder = JSONDecoder()
        var entries: [ImportEntry] = []
        entries.reserveCapacity(items.count)
        for (label, item) in items {
            guard let entry = try? decoder.decode(Entry.self, from: item) else {
                throw .invalid(label, .malformed("is not a post object (expected {\"title\", \"content\"} or {\"title\", \"body\"})"))
            }
            entries.append(
                ImportEntry(
                    label: label, uid: entry.uid, userId: entry.userId, id: entry.id, title: entry.title,
                    content: entry.content, body: entry.body, createDate: entry.createDate))
        }
        return entries
    }
}

/// A progress bar on a terminal, plain progress lines otherwise (on stderr,
/// so standard output stays clean for scripts).
final class Progress: Sendable {
    let quiet: Bool
    private let bar = Output.errorIsTerminal
    private let state = Mutex((saved: 0, lastLine: 0))

    init(quiet: Bool) { self.quiet = quiet }

    var saved: Int { state.withLock { $0.saved } }

    func update(_ done: Int, of total: Int) {
        let lastLine = state.withLock { state in
            defer { state.saved = done }
            return state.lastLine
        }
        guard !quiet, total > 0 else { return }
        if bar {
            let width = 30
            let filled = done * width / total
            let line =
                "\rImporting [\(String(repeating: "#", count: filled))\(String(repeating: ".", count: width - filled))] \(done * 100 / total)% "
                + "\(done)/\(total)"
            StandardError.write(line)
        } else if done == total || done - lastLine >= max(1, total / 10) {
            state.withLock { $0.lastLine = done }
            StandardError.write("imported \(done)/\(total)\n")
        }
    }

    func finish() {
        if bar, !quiet, saved > 0 { StandardError.write("\n") }
    }
}

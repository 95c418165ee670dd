import ArgumentParser
import Domain
import Foundation

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import posts from a JSON or JSON Lines file.",
        discussion: """
        The file holds a JSON array of posts, or one post per line (JSON Lines).
        A post is {"title", "content"}, optionally with "uid" (a UUID: importing
        again updates instead of duplicating) and "createDate" (ISO 8601). The
        common sample-data shape {"userId", "id", "title", "body"} works too; its
        uid is derived from userId and id, so importing it again duplicates
        nothing either. Use - to read standard input. If any entry is invalid,
        nothing is written; if the system fails part way, the posts already
        written stay, and the message says how many.
        """)

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: ArgumentHelp("The file, or - for standard input.", valueName: "file")) var file: String
    @Option(help: "Posts per request (1-1000).") var batch = 1000
    static let batchesInFlight = 3

    func validate() throws {
        guard (1...1000).contains(batch) else { throw ValidationError("--batch must be from 1 to 1000, not \(batch)") }
    }

    func run() async throws {
        try await Failure.guarded {
            let data: Data
            if file == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                guard let contents = FileManager.default.contents(atPath: file) else {
                    throw PostsError.invalid(field: "file", rule: "cannot read '\(file)'")
                }
                data = contents
            }
            let posts = try ImportReader.posts(from: data)
            let useCase = try connection.provider().makePostsUseCase()
            var progress = Progress(total: posts.count, quiet: connection.json)
            var batches = stride(from: 0, to: posts.count, by: batch).map { Array(posts[$0..<min($0 + batch, posts.count)]) }[...]
            var saved = 0
            // A few batches in flight, so encoding here overlaps decoding and
            // writing in the service. Safe because no uid is in two batches.
            do {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    func sendNext() {
                        guard let next = batches.popFirst() else { return }
                        group.addTask { try await useCase.save(next) }
                    }
                    for _ in 0..<Self.batchesInFlight { sendNext() }
                    while let count = try await group.next() {
                        saved += count
                        progress.update(saved)
                        sendNext()
                    }
                }
            } catch let error as PostsError {
                progress.finish()
                FileHandle.standardError.write(Data("posts: import stopped after \(saved) of \(posts.count) posts were saved\n".utf8))
                throw error
            }
            progress.finish()
            if connection.json { Output.json(["imported": saved]) } else { print("Imported \(saved) post\(saved == 1 ? "" : "s").") }
        }
    }
}

/// Reads posts from the shapes `posts import` accepts, naming the entry
/// that is wrong.
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

    static func posts(from data: Data) throws(PostsError) -> [Post] {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        var entries: [(label: String, data: Data)] = []
        if data.first(where: { !isSpace($0) }) == UInt8(ascii: "[") {
            guard let array = try? JSONSerialization.jsonObject(with: data) as? [Any] else {
                throw .invalid(field: "file", rule: "starts like a JSON array but is not valid JSON")
            }
            for (index, element) in array.enumerated() {
                guard JSONSerialization.isValidJSONObject(element), let item = try? JSONSerialization.data(withJSONObject: element) else {
                    throw .invalid(field: "entry \(index + 1)", rule: "is not a JSON object")
                }
                entries.append(("entry \(index + 1)", item))
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
                    if !line.allSatisfy(isSpace) { entries.append(("line \(number)", Data(line))) }
                    start = end + 1
                    number += 1
                }
            }
        }
        var posts: [Post] = []
        posts.reserveCapacity(entries.count)
        let decoder = JSONDecoder()
        for (label, item) in entries {
            guard let entry = try? decoder.decode(Entry.self, from: item) else {
                throw .invalid(field: label, rule: "is not a post object (expected {\"title\", \"content\"} or {\"title\", \"body\"})")
            }
            posts.append(try post(from: entry, label: label))
        }
        return lastOfEachUID(posts)
    }

    /// A version-8 (custom) UUID made of userId and id, so the same sample
    /// entry always gets the same uid.
    static func sampleUID(userId: Int64, id: Int64) -> UUID {
        var bytes = withUnsafeBytes(of: userId.bigEndian, Array.init) + withUnsafeBytes(of: id.bigEndian, Array.init)
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// A uid given twice is one post: the later entry wins, as it would if
    /// the entries were saved one after another.
    static func lastOfEachUID(_ posts: [Post]) -> [Post] {
        var last: [UUID: Int] = [:]
        for (index, post) in posts.enumerated() { last[post.uid] = index }
        guard last.count < posts.count else { return posts }
        return posts.enumerated().filter { last[$0.element.uid] == $0.offset }.map(\.element)
    }

    static func post(from entry: Entry, label: String) throws(PostsError) -> Post {
        guard let title = entry.title else { throw .invalid(field: "\(label).title", rule: "is missing") }
        var uid = entry.id.map { sampleUID(userId: entry.userId ?? 0, id: $0) } ?? UUID()
        if let text = entry.uid {
            guard let parsed = UUID(uuidString: text) else { throw .invalid(field: "\(label).uid", rule: "must be a UUID (got '\(text)')") }
            uid = parsed
        }
        var created = Date()
        if let text = entry.createDate {
            let styles = [Date.ISO8601FormatStyle(includingFractionalSeconds: true), Date.ISO8601FormatStyle()]
            guard let date = styles.lazy.compactMap({ try? Date(text, strategy: $0) }).first else {
                throw .invalid(field: "\(label).createDate", rule: "must be an ISO 8601 date (got '\(text)')")
            }
            created = date
        }
        let post = Post(uid: uid, title: title, content: entry.content ?? entry.body ?? "", createDate: created)
        do {
            return try PostRules.validated(post)
        } catch {
            if case .invalid(let field, let rule) = error { throw .invalid(field: "\(label).\(field)", rule: rule) }
            throw error
        }
    }
}

/// A progress bar on a terminal, plain progress lines otherwise (on stderr,
/// so standard output stays clean for scripts).
struct Progress {
    let total: Int
    let quiet: Bool
    private let bar = Output.errorIsTerminal
    private var lastLine = 0

    init(total: Int, quiet: Bool) {
        self.total = total
        self.quiet = quiet
    }

    mutating func update(_ done: Int) {
        guard !quiet, total > 0 else { return }
        if bar {
            let width = 30
            let filled = done * width / total
            let line = "\rImporting [\(String(repeating: "#", count: filled))\(String(repeating: ".", count: width - filled))] \(done * 100 / total)% \(done)/\(total)"
            FileHandle.standardError.write(Data(line.utf8))
        } else if done == total || done - lastLine >= max(1, total / 10) {
            lastLine = done
            FileHandle.standardError.write(Data("imported \(done)/\(total)\n".utf8))
        }
    }

    func finish() {
        if bar, !quiet, total > 0 { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}

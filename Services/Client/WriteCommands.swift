import ArgumentParser
import Domain
import Foundation

/// Where a post's content comes from: a flag, a file, or standard input.
struct ContentOptions: ParsableArguments {
    @Option(help: "The content.") var content: String?
    @Option(help: ArgumentHelp("Read the content from this file; - for standard input.", valueName: "path")) var contentFile: String?

    func validate() throws {
        if content != nil, contentFile != nil { throw ValidationError("give --content or --content-file, not both") }
    }

    var given: Bool { content != nil || contentFile != nil }

    /// The content given; with `pipedInput`, also standard input when it is a
    /// pipe or a file (never a terminal, /dev/null or an ssh socket, which
    /// would hang or silently give nothing). Nil when none was given.
    func read(pipedInput: Bool) throws(PostsError) -> String? {
        if let content { return content }
        if contentFile == "-" || (contentFile == nil && pipedInput && Output.inputIsPipeOrFile) {
            return try Self.utf8(FileHandle.standardInput.readDataToEndOfFile(), from: "standard input")
        }
        guard let contentFile else { return nil }
        guard let data = FileManager.default.contents(atPath: contentFile) else {
            throw .invalid("--content-file", .unreadable(path: contentFile))
        }
        return try Self.utf8(data, from: "'\(contentFile)'")
    }

    private static func utf8(_ data: Data, from source: String) throws(PostsError) -> String {
        guard let text = String(data: data, encoding: .utf8) else {
            throw .invalid("content", .notText("\(source) is not UTF-8"))
        }
        return text
    }
}

struct CreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Create a post.",
        discussion: "Content comes from --content, --content-file (- for standard input), or standard input when it is a pipe or a file.")

    @OptionGroup var connection: ConnectionOptions
    @Option(help: "The title (1-200 characters).") var title: String
    @OptionGroup var body: ContentOptions

    func run() async throws {
        try await Failure.guarded {
            let content = try body.read(pipedInput: true) ?? ""
            let post = try await connection.provider().makePostsUseCase().save(Post(title: title, content: content))
            if connection.json { return Output.json(post) }
            print(post.uid.uuidString)
        }
    }
}

struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: "Change a post's title or content.")

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "The post's uid.") var uid: String
    @Option(help: "The new title.") var title: String?
    @OptionGroup var body: ContentOptions

    func validate() throws {
        guard title != nil || body.given else {
            throw ValidationError("nothing to change: give --title, --content or --content-file (- for standard input)")
        }
    }

    func run() async throws {
        try await Failure.guarded {
            let posts = try connection.provider().makePostsUseCase()
            let read = try await posts.post(uid: try PostRules.uid(uid))
            let saved = try await posts.edit(read, title: title, content: try body.read(pipedInput: false))
            if connection.json { return Output.json(saved) }
            print("Updated \(saved.uid.uuidString)")
        }
    }
}

struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a post.")

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "The post's uid.") var uid: String

    func run() async throws {
        try await Failure.guarded {
            let target = try PostRules.uid(uid)
            let deleted = try await connection.provider().makePostsUseCase().delete(uid: target)
            if connection.json { Output.json(["deleted": deleted]) } else if deleted { print("Deleted \(target.uuidString)") }
            if !deleted { throw PostsError.notFound(uid: target) }
        }
    }
}

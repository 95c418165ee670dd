import ArgumentParser
import Domain
import Foundation

/// Where a post's content comes from: a flag, a file, or standard input.
struct ContentOptions: ParsableArguments {
    @Option(help: "The content.") var content: String?
    @Option(help: ArgumentHelp("Read the content from this file.", valueName: "path")) var contentFile: String?

    func validate() throws {
        if content != nil, contentFile != nil { throw ValidationError("give --content or --content-file, not both") }
    }

    /// The content given, or standard input when it is not a terminal; nil when none was given.
    func read(stdinAllowed: Bool) throws(PostsError) -> String? {
        if let content { return content }
        if let contentFile {
            guard let text = try? String(contentsOfFile: contentFile, encoding: .utf8) else {
                throw .invalid(field: "--content-file", rule: "cannot read '\(contentFile)' as UTF-8 text")
            }
            return text
        }
        guard stdinAllowed, !Output.inputIsTerminal else { return nil }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        return String(decoding: data, as: UTF8.self)
    }
}

struct CreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Create a post.",
        discussion: "Content comes from --content, --content-file, or standard input when it is not a terminal.")

    @OptionGroup var connection: ConnectionOptions
    @Option(help: "The title (1-200 characters).") var title: String
    @OptionGroup var body: ContentOptions

    func run() async throws {
        try await Failure.guarded {
            let content = try body.read(stdinAllowed: true) ?? ""
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

    func run() async throws {
        try await Failure.guarded {
            let posts = try connection.provider().makePostsUseCase()
            var post = try await posts.post(uid: try PostRules.uid(uid))
            let content = try body.read(stdinAllowed: title == nil)
            guard title != nil || content != nil else {
                throw PostsError.invalid(field: "edit", rule: "needs --title, --content, --content-file or content on standard input")
            }
            post.title = title ?? post.title
            post.content = content ?? post.content
            let saved = try await posts.save(post)
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

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
    func read(pipedInput: Bool) async throws(PostsError) -> String? {
        if let content { return content }
        if contentFile == "-" || (contentFile == nil && pipedInput && Output.inputIsPipeOrFile) {
            return try Self.utf8(await StandardInput.readToEnd(), from: "standard input")
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

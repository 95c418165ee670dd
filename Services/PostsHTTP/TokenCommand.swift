import ArgumentParser
import Foundation
import ServiceSupport

/// `posts-http token NAME --tokens FILE [--write]`: makes a token, adds its
/// hash to the list, and prints the token, once, for its holder.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Make an API token and add its hash to a token list.",
        discussion: """
            posts-http token NAME --tokens FILE [--write]
            Prints the new token on standard output, once: the list keeps only its
            SHA-256, so it cannot be shown again. Its holder sends it as
            Authorization: Bearer TOKEN. The list is made (mode 0600) if it is missing.
            A running posts-http reads the list again on SIGHUP; to revoke a token,
            delete its line and send SIGHUP.
            """
    )

    @Argument(help: ArgumentHelp("Who the token is for: letters, digits, '.', '_' or '-', at most 64.", valueName: "name"))
    var name: String

    /// Its `--tokens` (POSTS_HTTP_TOKENS) names the list to add to.
    @ParentCommand var edge: PostsHTTPCommand

    @Flag(help: "Let it write (POST, PUT, PATCH, DELETE) as well as read.")
    var write = false

    func run() throws {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard (1...64).contains(name.count), name.allSatisfy(allowed.contains) else {
            throw ValidationError("the name must be 1 to 64 letters, digits, '.', '_' or '-' (got '\(name)')")
        }
        guard let path = edge.tokens ?? ProcessInfo.processInfo.environment["POSTS_HTTP_TOKENS"] else {
            throw ValidationError("say which token list: --tokens FILE (or POSTS_HTTP_TOKENS)")
        }
        let token = TokenList.newToken()
        let line = "\(TokenList.hash(token))  \(write ? "write" : "read")  \(name)\n"
        do {
            if let existing = FileManager.default.contents(atPath: path) {
                let reading = TokenList.parse(String(decoding: existing, as: UTF8.self), path: path)
                guard !reading.tokens.values.contains(where: { $0.name == name }) else {
                    throw ValidationError("\(path) already has a token named '\(name)'; delete its line first to replace it")
                }
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
                defer { try? handle.close() }
                try handle.seekToEnd()
                try handle.write(contentsOf: Data(((existing.last == UInt8(ascii: "\n") || existing.isEmpty) ? line : "\n" + line).utf8))
            } else {
                try FileSecurity.writeNew(path, contents: "# posts-http tokens: SHA-256 of the token, read or write, name\n" + line, mode: 0o600)
            }
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
        print(token)
        StandardError.write(
            "posts-http: added '\(name)' (\(write ? "read and write" : "read only")) to \(path); send posts-http SIGHUP to admit it\n")
    }
}

import ArgumentParser
import Foundation
import ServiceSupport
import ZeroMQ

struct GenerateKey: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write NAME.key_secret (0600) and NAME.key (the public key), and print the public key.",
        discussion: """
            Existing files are never overwritten. Copy NAME.key into the gateway's
            allow-list directory (then send the gateway SIGHUP) to admit this key;
            keep NAME.key_secret on the host that uses it, for POSTS_CURVE_KEY.
            """
    )

    @Argument(help: ArgumentHelp("Name of the key: letters, digits, '.', '-', '_'.", valueName: "name"))
    var name: String

    @Option(help: ArgumentHelp("Directory to write into (made 0700 if missing).", valueName: "directory"))
    var dir = "."

    func run() throws {
        guard Curve.isAvailable else {
            throw ValidationError("this libzmq was built without CURVE; install Debian's libzmq5 (built with libsodium)")
        }
        do {
            let written = try KeyFiles.generate(name: name, directory: dir)
            print(written.publicKey)
            StandardError.write("posts: wrote \(written.secretPath) (secret, 0600) and \(written.publicPath) (public)\n")
        } catch let error as ConfigurationError {
            StandardError.write("posts: \(error)\n")
            throw ExitCode(1)
        }
    }
}

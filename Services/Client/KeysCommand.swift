import ArgumentParser
import Foundation
import ServiceSupport
import ZeroMQ

/// `posts keys`: CURVE key files for the gateway, the services and clients.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Make and show CURVE keys for connections across hosts (tcp://).",
        discussion: """
            Every process that talks over tcp:// has a key pair. The gateway admits the
            public keys in its allow-list directory (POSTS_CURVE_ALLOW); each other
            process needs its own secret-key file (POSTS_CURVE_KEY) and the gateway's
            public key (POSTS_GATEWAY_KEY). docs/OPERATIONS.md walks through it.
            """,
        subcommands: [GenerateKey.self, ShowKey.self]
    )
}

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

struct ShowKey: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print the public key and fingerprint of a key file (public or secret).",
        discussion: "The fingerprint is what the gateway logs when it refuses a key."
    )

    @Argument(help: ArgumentHelp("A NAME.key or NAME.key_secret file.", valueName: "file"))
    var file: String

    func run() throws {
        do {
            let publicKey = file.hasSuffix("_secret") ? try KeyFiles.readSecret(file).publicKey : try KeyFiles.readPublic(file)
            print("public key:  \(publicKey)\nfingerprint: \(Curve.fingerprint(publicKey))")
        } catch let error as ConfigurationError {
            StandardError.write("posts: \(error)\n")
            throw ExitCode(1)
        }
    }
}

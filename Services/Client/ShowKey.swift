import ArgumentParser
import Foundation
import ServiceSupport
import ZeroMQ

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

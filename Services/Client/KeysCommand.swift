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

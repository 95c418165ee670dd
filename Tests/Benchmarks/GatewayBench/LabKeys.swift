import Foundation
import ServiceSupport
import TestSupport
import ZeroMQ

/// CURVE for a whole benchmark (`--curve`): one key pair for the gateway
/// (and the raw echo baseline, which binds as it does), one the workers
/// and services share, one for this program's own clients, the last two
/// on the gateway's allow-list. Every connection uses CURVE, ipc:// too
/// (`POSTS_CURVE_IPC=1`), set as the services read it from their
/// environment. Made once, so every lab of a run shares the keys.
struct LabKeys {
    let directory: String
    let allow: String
    /// The security of this program's own sockets.
    let security: Security

    init() throws {
        let directory = try makeTemporaryDirectory("pb-keys")
        let allow = directory + "/allow"
        (self.directory, self.allow) = (directory, allow)
        let made = try ["gateway", "worker", "bench"].map { try KeyFiles.generate(name: $0, directory: directory + "/keys") }
        try FileSecurity.makeDirectory(allow)
        for key in made.dropFirst() {
            try FileManager.default.copyItem(atPath: key.publicPath, toPath: allow + "/" + (key.publicPath as NSString).lastPathComponent)
        }
        security = Security(
            keys: try KeyFiles.readSecret(made[2].secretPath), serverKey: made[0].publicKey, curveOnIPC: true)
    }

    /// What a process started by the lab is told: the gateway (and the raw
    /// echo, which binds too) its own key and the allow-list; every other
    /// process the workers' key and the gateway's public key.
    func environment(binding: Bool) -> [String: String] {
        let keys = directory + "/keys"
        return binding
            ? ["POSTS_CURVE_IPC": "1", "POSTS_CURVE_KEY": keys + "/gateway.key_secret", "POSTS_CURVE_ALLOW": allow]
            : ["POSTS_CURVE_IPC": "1", "POSTS_CURVE_KEY": keys + "/worker.key_secret", "POSTS_GATEWAY_KEY": keys + "/gateway.key"]
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }
}

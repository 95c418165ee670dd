import Foundation
@testable import Gateway
import ServiceSupport
import TestSupport
import TestTraits
import Testing
@testable import ZeroMQ

/// Who the gateway lets in over CURVE: the keys in its allow-list
/// directory, read again on SIGHUP; a refused key is logged once, not once
/// per attempt, so a peer retrying in a loop cannot flood the log.
@Suite("Gateway admission", .ownThread, .timeLimit(.minutes(1)))
struct AdmissionTests {
    /// An allow-list directory (owner-only, as the gateway demands) holding the public keys of `names`.
    func allowList(_ directory: String, of names: [String]) throws -> [String: String] {
        try FileManager.default.createDirectory(atPath: directory + "/keys", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory + "/allowed", withIntermediateDirectories: true)
        chmod(directory + "/allowed", 0o700)
        var keys: [String: String] = [:]
        for name in names {
            let written = try KeyFiles.generate(name: name, directory: directory + "/keys")
            try FileManager.default.copyItem(atPath: written.publicPath, toPath: directory + "/allowed/\(name).key")
            keys[name] = written.publicKey
        }
        return keys
    }

    func curve(_ key: String?, from address: String = "10.0.0.9") -> ZAPHandler.Request {
        ZAPHandler.Request(address: address, mechanism: "CURVE", publicKey: key)
    }

    @Test func test_aKeyOnTheList_isLetIn_andAnyOtherIsRefused() async throws {
        try withTemporaryDirectory("adm") { directory in
            let keys = try allowList(directory, of: ["web-1"])
            let log = CapturedLog()
            let admission = Admission(allowList: try AllowList(directory: directory + "/allowed"), logger: log.logger)
            #expect(admission.decide(curve(keys["web-1"])) == .allow)
            let stranger = try Curve.generateKeyPair().publicKey
            #expect(admission.decide(curve(stranger)) == .deny(reason: "key not on the allow-list"))
            #expect(log.messages(atLeast: .warning) == ["refused a peer: its key is not on the allow-list"])
        }
    }

    @Test func test_withoutCURVE_nobodyIsLetIn_whateverKeyTheyName() async throws {
        try withTemporaryDirectory("adm") { directory in
            let keys = try allowList(directory, of: ["web-1"])
            let admission = Admission(allowList: try AllowList(directory: directory + "/allowed"), logger: CapturedLog().logger)
            #expect(admission.decide(ZAPHandler.Request(address: "", mechanism: "NULL", publicKey: nil)) == .deny(reason: "CURVE is required"))
            let plain = ZAPHandler.Request(address: "", mechanism: "PLAIN", publicKey: keys["web-1"])
            #expect(admission.decide(plain) == .deny(reason: "CURVE is required"))
            #expect(admission.decide(curve(nil)) == .deny(reason: "CURVE is required"))
        }
    }

    @Test func test_aRefusedKeyIsLoggedOnce_howeverOftenItTries_andAgainAfterTheListIsReadAgain() async throws {
        try withTemporaryDirectory("adm") { directory in
            _ = try allowList(directory, of: ["web-1"])
            let log = CapturedLog()
            let admission = Admission(allowList: try AllowList(directory: directory + "/allowed"), logger: log.logger)
            let stranger = try Curve.generateKeyPair().publicKey
            for _ in 0..<50 { #expect(admission.decide(curve(stranger)) != .allow) }
            #expect(log.messages(atLeast: .warning).count == 1)
            admission.reload()
            _ = admission.decide(curve(stranger))
            #expect(log.messages(atLeast: .warning).count == 2, "\(log.messages(atLeast: .warning))")
        }
    }

    @Test func test_aKeyAddedToTheDirectory_isLetInOnceTheListIsReadAgain_andARemovedOneNoLonger() async throws {
        try withTemporaryDirectory("adm") { directory in
            let keys = try allowList(directory, of: ["web-1"])
            let log = CapturedLog()
            let admission = Admission(allowList: try AllowList(directory: directory + "/allowed"), logger: log.logger)
            let added = try KeyFiles.generate(name: "web-2", directory: directory + "/keys")
            try FileManager.default.copyItem(atPath: added.publicPath, toPath: directory + "/allowed/web-2.key")
            #expect(admission.decide(curve(added.publicKey)) != .allow, "not before the list is read again")
            try FileManager.default.removeItem(atPath: directory + "/allowed/web-1.key")
            admission.reload()
            #expect(admission.decide(curve(added.publicKey)) == .allow)
            #expect(admission.decide(curve(keys["web-1"])) != .allow)
            #expect(log.messages(atLeast: .notice).contains("allow-list read again"))
        }
    }

    @Test func test_anAllowListThatCannotBeReadAgain_keepsTheKeysItHad_andSaysSo() async throws {
        try withTemporaryDirectory("adm") { directory in
            let keys = try allowList(directory, of: ["web-1"])
            let log = CapturedLog()
            let admission = Admission(allowList: try AllowList(directory: directory + "/allowed"), logger: log.logger)
            try FileManager.default.removeItem(atPath: directory + "/allowed")
            admission.reload()
            #expect(admission.decide(curve(keys["web-1"])) == .allow)
            #expect(log.messages(atLeast: .error) == ["allow-list not read again; the keys it had stay"])
        }
    }
}

import Foundation
import ServiceSupport
import TestSupport
import TestTraits
import Testing
import ZeroMQ

/// A private directory for one test, removed afterwards.
final class TemporaryDirectory {
    let path: String
    init() throws {
        path = try makeTemporaryDirectory("sst")
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    func mode(_ name: String) -> Int {
        var info = stat()
        return stat(path + "/" + name, &info) == 0 ? Int(info.st_mode & 0o777) : -1
    }
}

@Suite("Key files", .ownThread, .timeLimit(.minutes(5)))
struct KeyFilesTests {
    @Test func test_generate_writesASecretOnlyTheOwnerReads_andAPublicKeyPyzmqCanLoad() async throws {
        let directory = try TemporaryDirectory()
        let oldMask = umask(0)  // the most permissive umask: modes must not follow it
        defer { umask(oldMask) }
        let written = try KeyFiles.generate(name: "web-1", directory: directory.path + "/keys")
        #expect(directory.mode("keys") == 0o700 && directory.mode("keys/web-1.key_secret") == 0o600)
        #expect(directory.mode("keys/web-1.key") == 0o644)
        let keys = try KeyFiles.readSecret(written.secretPath)
        #expect(keys.publicKey == written.publicKey && Curve.publicKey(forSecret: keys.secretKey) == written.publicKey)
        #expect(try KeyFiles.readPublic(written.publicPath) == written.publicKey)
        #expect(try KeyFiles.readPublic(written.publicKey) == written.publicKey, "Z85 text works as well as a file")
        let text = try String(contentsOfFile: written.publicPath, encoding: .utf8)
        #expect(text.contains("curve\n    public-key = \"\(written.publicKey)\"") && !text.contains("secret-key"))
    }

    @Test func test_generate_neverOverwritesAKey() async throws {
        let directory = try TemporaryDirectory()
        let first = try KeyFiles.generate(name: "gw", directory: directory.path)
        #expect(throws: ConfigurationError.self) { try KeyFiles.generate(name: "gw", directory: directory.path) }
        #expect(try KeyFiles.readSecret(first.secretPath).publicKey == first.publicKey)
    }

    @Test(arguments: ["", ".hidden", "a/b", "new\nline", "sp ace", String(repeating: "k", count: 65)])
    func test_aKeyNameOutsideTheSafeSet_isRefused(_ name: String) async throws {
        let directory = try TemporaryDirectory()
        #expect(throws: ConfigurationError.self) { try KeyFiles.generate(name: name, directory: directory.path) }
    }

    @Test func test_aSecretKeyOthersMayRead_isRefused_namingTheFix() async throws {
        let directory = try TemporaryDirectory()
        let written = try KeyFiles.generate(name: "svc", directory: directory.path)
        chmod(written.secretPath, 0o644)
        let error = #expect(throws: ConfigurationError.self) { try KeyFiles.readSecret(written.secretPath) }
        #expect(error?.description.contains("chmod 600") == true)
    }

    @Test func test_whatHoldsNoKey_isRefused() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/junk.key"
        try "not a key\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ConfigurationError.self) { try KeyFiles.readPublic(path) }
        #expect(throws: ConfigurationError.self) { try KeyFiles.readPublic("no-such-file-or-key") }
    }
}

@Suite("Allow-list", .ownThread, .timeLimit(.minutes(5)))
struct AllowListTests {
    @Test func test_readsEveryKeyFile_skipsWhatHoldsNone_andRereadsOnReload() async throws {
        let keys = try TemporaryDirectory(), allow = try TemporaryDirectory()
        let a = try KeyFiles.generate(name: "a", directory: keys.path)
        let b = try KeyFiles.generate(name: "b", directory: keys.path)
        try FileManager.default.copyItem(atPath: a.publicPath, toPath: allow.path + "/a.key")
        try "junk".write(toFile: allow.path + "/junk.key", atomically: true, encoding: .utf8)
        try b.publicKey.write(toFile: allow.path + "/b.txt", atomically: true, encoding: .utf8)  // not *.key: ignored
        let list = try AllowList(directory: allow.path)
        #expect(list.contains(a.publicKey) && !list.contains(b.publicKey) && list.count == 1)
        try (b.publicKey + "\n").write(toFile: allow.path + "/b.key", atomically: true, encoding: .utf8)  // a bare key works too
        try FileManager.default.removeItem(atPath: allow.path + "/a.key")
        let reading = try list.reload()
        #expect(list.contains(b.publicKey) && !list.contains(a.publicKey))
        #expect(reading.problems.count == 1 && reading.problems[0].contains("junk.key"))
    }

    @Test func test_aMissingDirectory_isAnError_andAFailedReloadKeepsTheKeys() async throws {
        let missing = #expect(throws: ConfigurationError.self) { try AllowList(directory: "/nonexistent/allow") }
        #expect(missing?.description.hasPrefix("cannot read the allow-list directory /nonexistent/allow: No such file or directory; make it") == true)
        let keys = try TemporaryDirectory()
        var allow: TemporaryDirectory? = try TemporaryDirectory()
        let a = try KeyFiles.generate(name: "a", directory: keys.path)
        try FileManager.default.copyItem(atPath: a.publicPath, toPath: allow!.path + "/a.key")
        let list = try AllowList(directory: allow!.path)
        allow = nil
        #expect(throws: ConfigurationError.self) { try list.reload() }
        #expect(list.contains(a.publicKey))
    }
}

@Suite("Security settings", .ownThread, .timeLimit(.minutes(5)))
struct SecuritySettingsTests {
    let tcp = ["tcp://10.0.0.1:5555", "tcp://10.0.0.1:5557"]
    let ipc = ["ipc:///tmp/p/gateway.ipc", "ipc:///tmp/p/events-subscribe.ipc"]

    @Test func test_ipcNeedsNoKey() async throws {
        let resolved = try SecuritySettings.client(
            Settings(environment: [:]), curveKey: nil, gatewayKey: nil, insecure: false,
            curveOnIPC: false, endpoints: ipc)
        #expect(resolved.security == .none && resolved.warning == nil)
    }

    @Test func test_tcpWithoutKeys_isRefused_sayingHowToMakeThem_unlessInsecure() async throws {
        for endpoints in [tcp, ["ipc:///tmp/a.ipc", "tcp://h:1"]] {
            let error = #expect(throws: ConfigurationError.self) {
                try SecuritySettings.client(
                    Settings(environment: [:]), curveKey: nil, gatewayKey: nil, insecure: false, curveOnIPC: false, endpoints: endpoints)
            }
            #expect(error?.description.contains("posts keys generate") == true && error?.description.contains("--insecure") == true)
            #expect(throws: ConfigurationError.self) {
                try SecuritySettings.gateway(
                    Settings(environment: [:]), curveKey: nil, allow: nil, insecure: false, curveOnIPC: false, endpoints: endpoints)
            }
        }
        let insecure = try SecuritySettings.client(
            Settings(environment: ["POSTS_INSECURE": "1"]), curveKey: nil, gatewayKey: nil,
            insecure: false, curveOnIPC: false, endpoints: tcp)
        #expect(insecure.security.keys == nil && insecure.warning?.contains("plaintext") == true)
        let gateway = try SecuritySettings.gateway(
            Settings(environment: [:]), curveKey: nil, allow: nil, insecure: true, curveOnIPC: false, endpoints: tcp)
        #expect(gateway.warning?.contains("plaintext") == true)
    }

    @Test func test_curveOnIPC_makesIPCNeedKeysToo() async throws {
        #expect(throws: ConfigurationError.self) {
            try SecuritySettings.client(
                Settings(environment: ["POSTS_CURVE_IPC": "1"]), curveKey: nil, gatewayKey: nil,
                insecure: false, curveOnIPC: false, endpoints: ipc)
        }
    }

    @Test func test_keysFromVariablesOrFlags() async throws {
        let directory = try TemporaryDirectory()
        let gateway = try KeyFiles.generate(name: "gateway", directory: directory.path)
        let client = try KeyFiles.generate(name: "client", directory: directory.path)
        let environment = ["POSTS_CURVE_KEY": client.secretPath, "POSTS_GATEWAY_KEY": gateway.publicKey]
        let resolved = try SecuritySettings.client(
            Settings(environment: environment), curveKey: nil, gatewayKey: nil,
            insecure: false, curveOnIPC: false, endpoints: tcp)
        #expect(resolved.security.keys?.publicKey == client.publicKey && resolved.security.serverKey == gateway.publicKey)
        let byFlags = try SecuritySettings.client(
            Settings(environment: [:]), curveKey: client.secretPath, gatewayKey: gateway.publicPath,
            insecure: false, curveOnIPC: false, endpoints: tcp)
        #expect(byFlags.security == resolved.security)
        let served = try SecuritySettings.gateway(
            Settings(environment: ["POSTS_CURVE_KEY": gateway.secretPath, "POSTS_CURVE_ALLOW": directory.path]),
            curveKey: nil, allow: nil, insecure: false, curveOnIPC: false, endpoints: tcp)
        #expect(served.security.keys?.publicKey == gateway.publicKey && served.allowDirectory == directory.path)
    }

    @Test func test_halfASetOfKeys_isRefused_namingTheMissingOne() async throws {
        let directory = try TemporaryDirectory()
        let client = try KeyFiles.generate(name: "client", directory: directory.path)
        let noServer = #expect(throws: ConfigurationError.self) {
            try SecuritySettings.client(
                Settings(environment: [:]), curveKey: client.secretPath, gatewayKey: nil, insecure: false, curveOnIPC: false, endpoints: tcp)
        }
        #expect(noServer?.description.contains("POSTS_GATEWAY_KEY") == true)
        let noOwn = #expect(throws: ConfigurationError.self) {
            try SecuritySettings.client(
                Settings(environment: [:]), curveKey: nil, gatewayKey: client.publicKey, insecure: false, curveOnIPC: false, endpoints: tcp)
        }
        #expect(noOwn?.description.contains("POSTS_CURVE_KEY") == true)
        let noAllow = #expect(throws: ConfigurationError.self) {
            try SecuritySettings.gateway(
                Settings(environment: [:]), curveKey: client.secretPath, allow: nil, insecure: false, curveOnIPC: false, endpoints: tcp)
        }
        #expect(noAllow?.description.contains("POSTS_CURVE_ALLOW") == true)
    }

    @Test(arguments: ["maybe", "2"])
    func test_aYesNoVariableThatIsNeither_isRefused(_ value: String) async {
        #expect(throws: ConfigurationError.self) { try Settings(environment: ["POSTS_INSECURE": value]).flag(env: "POSTS_INSECURE") }
    }
}

@Suite("Escaping peer text", .ownThread, .timeLimit(.minutes(5)))
struct EscapedTests {
    @Test(arguments: [
        ("plain text", "plain text"),
        ("line\nbreak", "line\\nbreak"),
        ("tab\there", "tab\\there"),
        ("\u{1B}[2Jclear", "\\u{1B}[2Jclear"),
        ("bell\u{07}", "bell\\u{7}"),
        ("c1 \u{9B}31m", "c1 \\u{9B}31m"),
        ("del\u{7F}", "del\\u{7F}"),
        ("rtl \u{202E}txt.exe", "rtl \\u{202E}txt.exe"),
        ("back\\slash", "back\\\\slash"),
        ("émoji ✓ 日本", "émoji ✓ 日本"),
    ])
    func test_oneLine_showsEveryControlCharacterAsText(_ input: String, _ expected: String) async {
        #expect(Escaped.line(input) == expected)
        #expect(!Escaped.line(input).unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    @Test func test_aBlockKeepsItsLinesAndTabs_butNoOtherControl() async {
        #expect(Escaped.text("para 1\n\tpara 2\u{1B}]0;title\u{07}") == "para 1\n\tpara 2\\u{1B}]0;title\\u{7}")
        #expect(Escaped.text("C:\\path") == "C:\\path", "a block's backslashes are the author's")
    }
}

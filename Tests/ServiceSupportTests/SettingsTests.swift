import Foundation
import ServiceSupport
import TestSupport
import TestTraits
import Testing
import ZeroMQ

@Suite("Settings", .ownThread, .timeLimit(.minutes(5)))
struct SettingsTests {
    @Test(arguments: [
        ("2500ms", Duration.milliseconds(2500)), ("2.5s", .milliseconds(2500)), ("1m", .seconds(60)),
        ("250", .milliseconds(250)), (" 3S ", .seconds(3)),
    ])
    func test_durationsReadInTheirUnits(_ text: String, _ expected: Duration) async {
        #expect(Settings.parseDuration(text) == expected)
    }

    @Test(arguments: ["soon", "", "-1s", "1e400s", "1e10s", "5h", "nan"])
    func test_whatIsNotADurationIsRefused(_ text: String) async {
        #expect(Settings.parseDuration(text) == nil)
    }

    @Test func test_aFlagWinsOverItsVariable_whichWinsOverTheDefault() async throws {
        let settings = Settings(environment: ["POSTS_QUEUE_WAIT": "3s", "POSTS_QUEUE_LIMIT": "7"])
        #expect(try settings.duration("1s", env: "POSTS_QUEUE_WAIT", default: .seconds(5)) == .seconds(1))
        #expect(try settings.duration(nil, env: "POSTS_QUEUE_WAIT", default: .seconds(5)) == .seconds(3))
        #expect(try settings.duration(nil, env: "UNSET", default: .seconds(5)) == .seconds(5))
        #expect(try settings.integer(nil, env: "POSTS_QUEUE_LIMIT", default: 1) == 7)
    }

    @Test func test_aBadValueIsRefusedWithAMessageNamingIt() async {
        let settings = Settings(environment: ["POSTS_QUEUE_LIMIT": "many", "POSTS_QUEUE_WAIT": "2d"])
        #expect(throws: ConfigurationError.self) { try settings.integer(nil, env: "POSTS_QUEUE_LIMIT", default: 1) }
        let error = #expect(throws: ConfigurationError.self) { try settings.duration(nil, env: "POSTS_QUEUE_WAIT", default: .seconds(1)) }
        #expect(error?.description.contains("POSTS_QUEUE_WAIT") == true)
        #expect(error?.description.contains("'2d'") == true)
        #expect(throws: ConfigurationError.self) { try settings.integer(0, env: "X", default: 1, minimum: 1) }
        #expect(throws: ConfigurationError.self) { try settings.logLevel("loud") }
    }

    @Test func test_workerThreadsDefaultToNone_comeFromTheFlagOrVariable_andZeroIsRefusedByName() async throws {
        #expect(try Settings(environment: [:]).workerConfiguration(sessions: 16, defaultSessions: 1, heartbeatInterval: nil).threads == nil)
        let settings = Settings(environment: ["POSTS_WORKER_THREADS": "3"])
        #expect(try settings.workerConfiguration(sessions: 16, defaultSessions: 1, heartbeatInterval: nil).threads == 3)
        #expect(try settings.workerConfiguration(sessions: 16, defaultSessions: 1, threads: 1, heartbeatInterval: nil).threads == 1)
        let error = #expect(throws: ConfigurationError.self) {
            try Settings(environment: ["POSTS_WORKER_THREADS": "0"]).workerConfiguration(sessions: 4, defaultSessions: 1, heartbeatInterval: nil)
        }
        #expect(error?.description.contains("POSTS_WORKER_THREADS") == true)
    }
}

@Suite("Runtime directory and endpoints", .ownThread, .timeLimit(.minutes(5)))
struct RuntimeDirectoryTests {
    @Test func test_theDefaultEndpointLivesInThePrivateRuntimeDirectory() async throws {
        #expect(Endpoints.gateways(environment: ["POSTS_RUNTIME_DIR": "/run/x"]) == ["ipc:///run/x/gateway.ipc"])
        #expect(Endpoints.gateways(environment: ["XDG_RUNTIME_DIR": "/run/user/1"]) == ["ipc:///run/user/1/posts/gateway.ipc"])
        #expect(Endpoints.gateways(environment: [:]) == ["ipc:///tmp/posts-\(getuid())/gateway.ipc"])
        #expect(try Endpoints.gatewayBind(environment: ["POSTS_GATEWAY_BIND": "tcp://*:1, ipc:///a/b"]) == ["tcp://*:1", "ipc:///a/b"])
        #expect(Endpoints.gateways(environment: ["POSTS_GATEWAY": " ipc:///a/g.ipc, ,tcp://b:5555 "]) == ["ipc:///a/g.ipc", "tcp://b:5555"])
        #expect(Endpoints.eventsPublish(environment: ["POSTS_EVENTS_PUBLISH": "ipc:///a/p.ipc,ipc:///b/p.ipc"]).count == 2)
        #expect(throws: ConfigurationError.self, "a gateway cannot tell which of two is its own") {
            try Endpoints.gatewayBind(environment: ["POSTS_GATEWAY": "ipc:///a/g.ipc,ipc:///b/g.ipc"])
        }
    }

    @Test func test_aMissingRuntimeDirectoryIsCreatedPrivate_andALooseOneIsTightened() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("rt-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        let runtime = base + "/posts"
        try RuntimeDirectory.prepare(endpoints: ["ipc://\(runtime)/gateway.ipc"], environment: ["POSTS_RUNTIME_DIR": runtime])
        #expect(try permissions(runtime) == 0o700)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: runtime)
        try RuntimeDirectory.prepare(endpoints: ["ipc://\(runtime)/gateway.ipc"], environment: ["POSTS_RUNTIME_DIR": runtime])
        #expect(try permissions(runtime) == 0o700)
    }

    @Test func test_anExistingDirectoryTheUserNamedIsLeftAsItIs() async throws {
        let other = FileManager.default.temporaryDirectory.appendingPathComponent("own-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(atPath: other) }
        try RuntimeDirectory.prepare(endpoints: ["ipc://\(other)/g.ipc"], environment: ["POSTS_RUNTIME_DIR": "/nonexistent-rt"])
        #expect(try permissions(other) == 0o755)
    }

    @Test func test_aDirectoryThatCannotBeMade_isRefusedNamingItAndWhy() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("file-\(UUID().uuidString.prefix(8))").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let error = #expect(throws: ConfigurationError.self) {
            try RuntimeDirectory.prepare(endpoints: ["ipc://\(file)/sub/g.ipc"], environment: [:])
        }
        #expect(error?.description.contains("\(file)/sub: Not a directory") == true)
        let stray = #expect(throws: ConfigurationError.self) { try FileSecurity.makeDirectory(file) }
        #expect(stray?.description == "\(file) exists and is not a directory")
    }

    @Test func test_endpointsOfTheWrongFormAreRefusedByName() async {
        #expect(throws: ConfigurationError.self) { try Endpoints.validate("htp://x") }
        #expect(throws: ConfigurationError.self) { try Endpoints.validate("tcp://") }
        #expect(throws: ConfigurationError.self) { try Endpoints.validate("ipc:///" + String(repeating: "d", count: 120)) }
        #expect(throws: Never.self) { try Endpoints.validate("ipc:///tmp/posts-0/gateway.ipc") }
    }

    private func permissions(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}

@Suite("Transport setting", .ownThread, .timeLimit(.minutes(1)))
struct TransportSettingTests {
    @Test func test_POSTS_ZMTP_choosesWhoCarriesPlaintextEndpoints_andRefusesAnythingElse() async throws {
        let endpoints = ["ipc:///tmp/x.ipc", "tcp://127.0.0.1:5555"]
        for (value, own) in [(nil, true), ("own", true), ("OWN", true), ("libzmq", false), (" libzmq ", false)] {
            let settings = Settings(environment: value.map { ["POSTS_ZMTP": $0] } ?? [:])
            let context = try settings.context(security: .none)
            for binding in [true, false] {
                #expect(endpoints.allSatisfy { context.speaksZMTPItself($0, binding: binding) == own }, "POSTS_ZMTP=\(value ?? "(unset)")")
                #expect(!context.speaksZMTPItself("inproc://x", binding: binding))
                #expect(!context.speaksZMTPItself("tcp://gateway-host:5555", binding: binding))
            }
            // A wildcard is ours to bind, and libzmq's to refuse as a place to connect to.
            #expect(context.speaksZMTPItself("tcp://*:5555", binding: true) == own)
            #expect(!context.speaksZMTPItself("tcp://*:5555", binding: false) && !context.speaksZMTPItself("tcp://127.0.0.1:*", binding: false))
        }
        #expect(throws: ConfigurationError.self) { try Settings(environment: ["POSTS_ZMTP": "zeromq"]).context(security: .none) }
    }
}

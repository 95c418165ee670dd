import Foundation
import Testing

/// A new write built as docs/ADDING_A_USE_CASE.md says (section 6) does not
/// compile until both of its ends decide what a retry does: the compiler
/// itself is run on each end, against the modules this build made.
@Suite("A write needs its request key", .timeLimit(.minutes(3)))
struct WriteNeedsKeyTests {
    /// A write of the documented shape; `client` and `server` are its two
    /// ends as a newcomer might write them.
    static func source(client: String, server: String) -> String {
        """
        import Domain
        import Foundation
        import RPCServer
        import Wire

        enum ArchiveMethod {
            static let archive = RPCWrite<UIDParams, DeleteResult>("posts.archive", service: "posts")
        }

        extension PostsServiceClient {
            func archive(uid: UUID) async throws(PostsError) -> Bool {
                \(client)
            }
        }

        func serve(on router: inout JSONRPCRouter) {
            \(server)
        }
        """
    }

    static let keyedClient = "try await call(ArchiveMethod.archive, UIDParams(uid: uid.uuidString), key: nil).deleted"
    static let keyedServer = "router.on(ArchiveMethod.archive) { params, key, _ in DeleteResult(deleted: key != nil) }"

    func typecheck(_ source: String) async throws -> CommandResult {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let file = harness.directory + "/Archive.swift"
        try source.write(toFile: file, atomically: true, encoding: .utf8)
        let modules = ProcessHarness.binaries.appendingPathComponent("Modules").path
        return try await harness.run("/usr/bin/env", ["swiftc", "-typecheck", "-I", modules, file])
    }

    @Test func test_bothEndsGivenTheKey_compile() async throws {
        let result = try await typecheck(Self.source(client: Self.keyedClient, server: Self.keyedServer))
        #expect(result.status == 0, "the documented write does not compile: \(result.stderr)")
    }

    @Test func test_aClientCallWithoutAKey_doesNotCompile() async throws {
        let unkeyed = "try await call(ArchiveMethod.archive, UIDParams(uid: uid.uuidString)).deleted"
        let result = try await typecheck(Self.source(client: unkeyed, server: Self.keyedServer))
        #expect(result.status != 0, "a write's call compiled with no decision about its key")
        #expect(result.stderr.contains("Archive.swift:12:"), "the error is the call's line: \(result.stderr)")
    }

    @Test func test_aHandlerThatTakesNoKey_doesNotCompile() async throws {
        let unkeyed = "router.on(ArchiveMethod.archive) { params, _ in DeleteResult(deleted: false) }"
        let result = try await typecheck(Self.source(client: Self.keyedClient, server: unkeyed))
        #expect(result.status != 0, "a write's handler compiled without taking its key")
        #expect(result.stderr.contains("expects 3 arguments, but 2 were used"), "\(result.stderr)")
    }
}

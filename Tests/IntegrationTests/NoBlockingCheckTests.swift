import Foundation
import Testing

/// The check `make lint` runs (Tests/Checks/no-blocking.py) refuses what
/// would block a cooperative thread, and lets the same wait through on a
/// thread of its own.
@Suite("The no-blocking check", .timeLimit(.minutes(2)))
struct NoBlockingCheckTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Checks/no-blocking.py").path

    func check(_ source: String) async throws -> CommandResult {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        try FileManager.default.createDirectory(atPath: harness.directory + "/Planted", withIntermediateDirectories: true)
        try source.write(toFile: harness.directory + "/Planted/PlantedTests.swift", atomically: true, encoding: .utf8)
        return try await harness.run("/usr/bin/python3", [Self.script, harness.directory + "/Planted"])
    }

    @Test func test_aUsleepPlantedInAnAsyncTest_failsTheCheck_namingTheLine() async throws {
        let result = try await check(
            """
            import Testing

            @Suite("planted", .timeLimit(.minutes(1)))
            struct PlantedTests {
                @Test func test_planted() async throws {
                    usleep(1000)
                }
            }
            """)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("PlantedTests.swift:6: `usleep(` blocks"), "\(result.stdout)")
    }

    @Test func test_aSynchronousTest_aSuiteWithoutTimeLimit_andAHelperThatBlocks_areEachNamed() async throws {
        let result = try await check(
            """
            import Testing

            func settle() { Thread.sleep(forTimeInterval: 0.1) }

            @Suite("planted")
            struct PlantedTests {
                @Test func test_planted() throws {}
            }
            """)
        #expect(result.status == 1)
        #expect(result.stdout.contains("`settle` is not marked @available(*, noasync"), "\(result.stdout)")
        #expect(result.stdout.contains("@Suite without a .timeLimit"), "\(result.stdout)")
        #expect(result.stdout.contains("@Test func test_planted is not async"), "\(result.stdout)")
    }

    @Test func test_theSameWaits_onAThreadOfTheirOwn_orMarkedNoasync_pass() async throws {
        let result = try await check(
            """
            import Testing

            @available(*, noasync, message: "blocks its thread")
            func settle() { Thread.sleep(forTimeInterval: 0.1) }

            @Suite("planted", .timeLimit(.minutes(1)))
            struct PlantedTests {
                @Test func test_planted() async throws {
                    try await onOwnThread { usleep(1000); settle() }
                    try await Task.sleep(for: .milliseconds(1))
                }
            }
            """)
        #expect(result.status == 0, "\(result)")
    }
}

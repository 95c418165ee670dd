import Domain
import Foundation
import NetworkPlatform
import Testing
import ZeroMQ

/// The network adapters against real processes: how each kind of outage
/// reaches a caller, as a value it can tell apart.
@Suite("Network platform", .serialized, .timeLimit(.minutes(5)))
struct NetworkPlatformTests {
    @Test func test_withNoGateway_aCallFailsAsNoAnswer_naming_theEndpoint() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let posts = UseCaseProvider(try NetworkPlatform.connect(endpoint: harness.gatewayEndpoint, timeout: .seconds(1))).makePostsUseCase()
        let error = await postsError { _ = try await posts.post(uid: UUID()) }
        #expect(error == .unavailable(.noAnswer(endpoint: harness.gatewayEndpoint, seconds: 1)))
    }

    @Test func test_withAGatewayButNoPostsService_aCallFailsAsNoWorker() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        try await harness.startGateway(context: try Context())
        let posts = UseCaseProvider(try NetworkPlatform.connect(endpoint: harness.gatewayEndpoint, timeout: .seconds(2))).makePostsUseCase()
        let error = await postsError { _ = try await posts.post(uid: UUID()) }
        #expect(error == .unavailable(.noWorker(service: "posts")), "\(String(describing: error))")
    }

    @Test func test_statusGroupsSessionsIntoTheirProcesses() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(context: context)
        try await harness.startPostsService(sessions: 3, context: context)
        let pid = try #require(harness.process("posts-service")?.processIdentifier)
        let status = try await UseCaseProvider(try NetworkPlatform.connect(endpoint: harness.gatewayEndpoint)).makeStatusUseCase().status()
        let processes = status.processes.filter { $0.service == "posts" }
        #expect(processes.count == 1)
        #expect(processes.first?.pid == pid && processes.first?.sessions == 3)
        #expect(status.services.first { $0.name == "posts" }.map { ($0.processes, $0.sessions) } ?? (0, 0) == (1, 3))
    }
}

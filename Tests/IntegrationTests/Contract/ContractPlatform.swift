import Domain
import Foundation
import LocalPlatform
import NetworkPlatform
import PostgresPlatform
import Testing
@_exported import TestSupport
import ZeroMQ

/// The platforms the use-case contract runs on. Each test gets its own:
/// a temporary SQLite file, a new database on a throwaway PostgreSQL
/// cluster, or real gateway, posts-service and search-service processes on
/// a temporary runtime directory.
enum ContractPlatform: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case local, postgres, network

    var testDescription: String { rawValue }

    func run(_ body: (UseCaseProvider) async throws -> Void) async throws {
        switch self {
        case .local:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID().uuidString.prefix(8))").path
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try await body(UseCaseProvider(try LocalPlatform.open(path: directory + "/posts.sqlite")))
        case .postgres:
            try await body(
                UseCaseProvider(
                    try await PostgresPlatform.open(
                        url: try await PostgresCluster.shared.newDatabase(), searchIndex: try SQLiteSearchIndex(), callTimeout: .seconds(30))))
        case .network:
            let harness = try ProcessHarness()
            defer { harness.shutdown() }
            let context = try Context()
            try await harness.startPostsSystem(context: context)
            _ = try await harness.startSearchService("search", context: context)
            try await body(UseCaseProvider(try NetworkPlatform.connect(endpoint: harness.gatewayEndpoint, timeout: .seconds(10))))
        }
    }
}

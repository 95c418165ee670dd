import Domain
import Foundation
import LocalPlatform
import NetworkPlatform
import Testing
import ZeroMQ

/// The platforms the use-case contract runs on. Each test gets its own:
/// a temporary SQLite file, or real gateway, posts-service and
/// search-service processes on a temporary runtime directory.
enum ContractPlatform: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case local, network

    var testDescription: String { rawValue }

    func run(_ body: (UseCaseProvider) async throws -> Void) async throws {
        switch self {
        case .local:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID().uuidString.prefix(8))").path
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try await body(UseCaseProvider(try LocalPlatform.open(path: directory + "/posts.sqlite")))
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

extension Post {
    static func stub(title: String = "A title", content: String = "Some content", created: TimeInterval = 1_700_000_000) -> Post {
        Post(title: title, content: content, createDate: Date(timeIntervalSince1970: created))
    }
}

/// Every post, page by page, as a reader would walk them.
func allPages(_ posts: any PostsUseCase, limit: Int) async throws -> [[Post]] {
    var pages: [[Post]] = []
    var cursor: String?
    repeat {
        let page = try await posts.posts(limit: limit, cursor: cursor)
        pages.append(page.posts)
        cursor = page.nextCursor
    } while cursor != nil
    return pages
}

/// The error `body` throws, as a PostsError (nil when it throws none).
func postsError(_ body: () async throws -> Void) async -> PostsError? {
    do {
        try await body()
        return nil
    } catch let error as PostsError {
        return error
    } catch {
        return .failed("not a PostsError: \(error)")
    }
}

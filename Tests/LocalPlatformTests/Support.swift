import Domain
import Foundation
import LocalPlatform
@_exported import TestSupport

/// A fresh SQLite file in its own directory, removed afterwards.
@discardableResult
func withDatabase<Value>(_ body: (String) async throws -> Value) async throws -> Value {
    try await withTemporaryDirectory("lp") { directory in try await body(directory + "/posts.sqlite") }
}

/// The use cases on the SQLite file at `path`.
func openLocal(_ path: String) throws(PostsError) -> UseCaseProvider {
    UseCaseProvider(try LocalPlatform.open(path: path))
}

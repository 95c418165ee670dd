import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

public struct SaveManyParams: Codable, Sendable {
    public var posts: [PostDTO]
    public init(posts: [PostDTO]) { self.posts = posts }
}

public struct SaveManyResult: Codable, Sendable, Equatable {
    public var saved: Int
    public init(saved: Int) { self.saved = saved }
}

import Domain

/// `posts.count`'s result: how many posts there are.
public struct CountResult: Codable, Sendable, Equatable {
    public var count: Int
    public init(count: Int) { self.count = count }
}

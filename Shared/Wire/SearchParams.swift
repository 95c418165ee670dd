public struct SearchParams: Codable, Sendable {
    public var q: String
    public var limit: Int?
    public var offset: Int?
    public init(q: String, limit: Int? = nil, offset: Int? = nil) { (self.q, self.limit, self.offset) = (q, limit, offset) }
}

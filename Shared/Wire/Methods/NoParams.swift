/// The params of a method that takes none: written as `{}` (which then
/// carries `_meta`), read from nothing, null or any object.
public struct NoParams: Codable, Sendable, Equatable {
    public init() {}
}

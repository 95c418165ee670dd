/// The params of a method that takes none: written as `{}` (which then
/// carries `_meta`), read from nothing, null or any object. An array or a
/// scalar is invalid params, as it is for every other method.
public struct NoParams: Codable, Sendable, Equatable {
    public init() {}

    public init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: AnyMember.self)
    }

    /// Whatever members the object has: none is read.
    private struct AnyMember: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

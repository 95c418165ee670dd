import Foundation

public struct DatabaseURLError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

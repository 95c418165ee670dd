import Domain
import Foundation

/// How many posts match, or at least how many when the search service
/// stopped counting (`SearchResults.totalIsExact`): "12", "1000+".
public struct SearchTotal: Sendable, Equatable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    public var count: Int
    public var exact: Bool

    public init(count: Int, exact: Bool) { (self.count, self.exact) = (count, exact) }
    public init(integerLiteral count: Int) { self.init(count: count, exact: true) }

    public var description: String { exact ? "\(count)" : "\(count)+" }
}

import Foundation

/// A match among the best, as the page shows it.
public struct RankedMatch {
    public init(rowid: Int64, score: Double, instances: [PhraseInstance]) {
        (self.rowid, self.score, self.instances) = (rowid, score, instances)
    }

    public var rowid: Int64
    public var score: Double
    public var instances: [PhraseInstance]
}

import Foundation

/// A match among the best, as the page shows it.
struct RankedMatch {
    var rowid: Int64
    var score: Double
    var instances: [PhraseInstance]
}

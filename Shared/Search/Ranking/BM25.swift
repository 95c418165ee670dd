import Foundation

/// bm25 as FTS5's `bm25()` computes it, in the same floating-point steps
/// (so the same bits): the tests hold the ranking's pages to FTS5's own,
/// score for score.
enum BM25 {
    static let k1 = 1.2
    static let b = 0.75

    /// The inverse document frequency of a phrase `hits` of `rows` documents hold.
    static func inverseFrequency(rows: Int64, hits: Int64) -> Double {
        let idf = log((Double(rows - hits) + 0.5) / (Double(hits) + 0.5))
        return idf <= 0 ? 1e-6 : idf
    }

    /// A phrase's part of a document's score before its inverse frequency:
    /// `frequency` is its weighted count of matches in the document.
    @inline(__always)
    static func part(frequency: Double, length: Double, averageLength: Double) -> Double {
        (frequency * (k1 + 1.0)) / (frequency + k1 * (1 - b + b * length / averageLength))
    }
}

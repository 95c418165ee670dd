/// One term of a ranked query, as a hit's snippet finds where it matched
/// (`ImpactRanker.instances`): any one of some stems (a word, or an
/// unfinished word's completions), or a phrase's stems, in order.
enum QueryTerm: Equatable, Sendable {
    case anyOf([Int32])
    case phrase([Int32])
}

extension [QueryTerm] {
    /// The stems of each phrase among them, in order.
    var phrases: [[Int32]] {
        compactMap { term in
            guard case .phrase(let stems) = term else { return nil }
            return stems
        }
    }
}

/// The documents one page of changes removed (with the texts they had)
/// and added, by rowid, in the order it changed them.
struct ChangedDocuments {
    var removed: [ImpactRanker.Document] = []
    var added: [ImpactRanker.Document] = []
    /// For each added document, the position of its change in the page.
    var addedBy: [Int] = []
}

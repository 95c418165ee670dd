/// Why a search-service cannot keep its index where it was to.
enum IndexDirectoryError: Error, CustomStringConvertible {
    case inUse(String)
    case noFreeSlot(String, Int)
    case cannotUse(String, String)
    case noIndex(String)
    case cannotSnapshot(String, String)

    var description: String {
        switch self {
        case .inUse(let path):
            "the index directory \(path) is in use by another search-service; give each process its own (--index-dir), or none to take a free slot"
        case .noFreeSlot(let parent, let slots):
            "all \(slots) index slots under \(parent) are in use by other search-services; give --index-dir, or --index-dir memory"
        case .cannotUse(let path, let reason):
            "cannot use \(path) for the search index: \(reason)"
        case .noIndex(let path):
            "no search index in \(path) to take a snapshot of (--index-dir names the directory a worker keeps its index in)"
        case .cannotSnapshot(let path, let reason):
            "cannot write a snapshot of the search index to \(path): \(reason)"
        }
    }
}

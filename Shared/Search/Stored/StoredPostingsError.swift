/// Why the ranking's postings could not be saved or read back
/// (`StoredPostings`). Either way the index is intact: postings not read
/// are loaded from the documents instead.
public enum StoredPostingsError: Error, CustomStringConvertible {
    case cannotWrite(String, String)
    case cannotRead(String, String)
    case damaged(String)

    public var description: String {
        switch self {
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
        case .damaged(let what): "damaged: \(what)"
        }
    }
}

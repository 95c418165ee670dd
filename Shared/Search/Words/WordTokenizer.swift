/// How the engine finds a text's words and stems them: the one thing it
/// takes from outside. The index's is FTS5's (porter over unicode61,
/// LocalPlatform's `FTS5Words`), so that a document's tokens and their count
/// are FTS5's, which bm25 needs to agree on. One thread uses it at a time;
/// the engine keeps one for each thread that tokenizes at once.
///
/// The engine counts on two things unicode61 and porter do: in ASCII text,
/// the words are the runs of letters and digits
/// (`SearchQuery.isTokenCharacter`), which it finds itself without a call;
/// and a stem begins with its word's first letter and is no longer than
/// the word, so a phrase's words are told apart in a post without stemming
/// every word there.
public protocol WordTokenizer: AnyObject, Sendable {
    /// Each word of `text` (UTF-8), folded as the index folds it, with the
    /// range of its bytes in `text`, in order, until `each` answers false.
    /// `what` names the text in the error thrown should the tokenizer fail.
    func eachWord(in text: UnsafeBufferPointer<UInt8>, what: String, _ each: (UnsafeBufferPointer<UInt8>, Range<Int>) -> Bool) throws

    /// The stem of `word`, one word as `eachWord` gives it (a word that
    /// does not stem is its own).
    func stem(_ word: String) throws -> String
}

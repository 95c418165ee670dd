import Domain
import Synchronization
import SystemSupport

/// An `ImpactIndex` that many threads may use: documents added and removed
/// by rowid, queries ranked as `ImpactSearch` does, as many at once as
/// there are threads asking (they read the postings together; a change
/// waits until none does, and none reads half of it). Words are found by
/// the `WordTokenizer`s it makes (`makeTokenizer`): one for each thread
/// tokenizing at once.
///
/// Beside a table that already holds documents it is loaded in rowid order
/// (`load`), while the table changes (`apply`): a change at or below the
/// rowid loaded so far is applied, one past it is left for the loading,
/// which reaches it. It ranks nothing (`rank` answers nil) until loaded.
public final class ImpactRanker: Sendable {
    public typealias Document = (rowid: Int64, title: String, content: String)
    /// A document's words (its title's, its content's) as its
    /// `WordTokenizer` finds and folds them: what `apply` stems, and their
    /// count its length.
    public typealias Words = (title: PackedWords, content: PackedWords)

    struct State {
        var index = ImpactIndex()
        /// Documents up to this rowid are in `index`.
        var loadedThrough: Int64 = 0
        var complete = false
        /// Postings added since free memory was last given back.
        var addedSinceRelease = 0
        /// Postings added since it last took up a saved copy (`restore`,
        /// `adopt`), or since it was emptied: those in memory of its own.
        var addedSinceSaved = 0
        /// Counts every change to what it holds, across restores and
        /// resets: a saved copy is what it holds while this is unchanged.
        var version = 0
        /// The changes applied since a copy was taken to be saved
        /// (`saved`), to apply to that copy once it is read back (`adopt`);
        /// nil when no save is under way, or when it outgrew its bound.
        var sinceSaved: SinceSaved?
    }

    /// A table's change as `apply` takes it.
    typealias Change = (removed: [Document], added: [Document], words: [Int64: Words])

    /// Free memory is given back (`FreeMemory`) once postings have grown by
    /// this fraction of what they hold since it last was (or by a million).
    static let releaseAfterGrowth = 8

    /// Matches counted exactly before a query may skip postings; past it
    /// the count is a lower bound (`RankedRows.totalIsExact` false).
    public static let exactCount = 1_000

    /// Makes a tokenizer, when every one made is in use.
    private let makeTokenizer: @Sendable () throws -> any WordTokenizer
    /// Tokenizers not in use (`IdlePool`: as many as ever tokenized at
    /// once, a process's sessions and the thread finding a page's words).
    private let tokenizers: IdlePool<any WordTokenizer>
    let state = ReadWriteLocked(State())

    public init(makeTokenizer: @escaping @Sendable () throws -> any WordTokenizer) throws(PostsError) {
        FreeMemory.keepLargeBlocksMapped()
        self.makeTokenizer = makeTokenizer
        do {
            tokenizers = IdlePool(holding: [try makeTokenizer()])  // made here, so that a failure is the ranker's, at once
        } catch {
            throw .failed("cannot make a tokenizer: \(error)")
        }
    }

    /// Whether it holds every document, and so ranks.
    public var isComplete: Bool { state.read { $0.complete } }

    /// The next documents of the table in rowid order, all of them up to
    /// `through`; `complete`: the table has no more.
    public func load(_ documents: [Document], through: Int64, complete: Bool) throws(PostsError) {
        try tokenizing { tokenizer in
            try self.state.write { state in
                state.version += 1
                state.sinceSaved = nil  // not one `apply`'s change: a copy saved before it is not taken up
                let before = state.index.postingsAdded
                try Self.add(documents.filter { $0.rowid > state.loadedThrough }, to: &state.index, tokenizer)
                state.addedSinceSaved += state.index.postingsAdded - before
                state.loadedThrough = max(state.loadedThrough, through)
                if complete && !state.complete {
                    state.index.trim()
                    FreeMemory.giveBack()
                }
                // Once complete it stays so: after a reset every document
                // came through `apply`, and the loading only meets them again.
                state.complete = state.complete || complete
            }
        }
    }

    /// Each text's words (nil for none), as `apply` takes them: work that
    /// needs no lock and no rowid, done while the table is written.
    public func words(of texts: [(title: String, content: String)?]) throws(PostsError) -> [Words?] {
        try tokenizing { tokenizer in
            try texts.map { text in try text.map { (try tokenizer.packedWords(in: $0.title), try tokenizer.packedWords(in: $0.content)) } }
        }
    }

    /// The table's change: `removed` documents (with the texts they had)
    /// and `added` ones, each past every rowid before it; `words`: those
    /// of added documents already found (`words(of:)`), by rowid.
    public func apply(removed: [Document], added: [Document], words: [Int64: Words] = [:]) throws(PostsError) {
        let release = try tokenizing { tokenizer in
            try self.state.write { state -> Bool in
                state.version += 1
                let change = (removed, added, words)
                let postings = try Self.apply(change, to: &state.index, loadedThrough: &state.loadedThrough, complete: state.complete, tokenizer)
                if var since = state.sinceSaved {
                    state.sinceSaved = nil  // no copy of its changes while it is appended to
                    since.changes.append(change)
                    since.bytes += Self.bytes(of: change)
                    if since.bytes <= Self.sinceSavedBytes * Self.sinceSavedGiveUp { state.sinceSaved = since }
                }
                state.addedSinceRelease += postings
                state.addedSinceSaved += postings
                guard state.addedSinceRelease > max(1_000_000, state.index.postingsAdded / Self.releaseAfterGrowth) else { return false }
                state.addedSinceRelease = 0
                return true
            }
        }
        if release { FreeMemory.giveBack() }
    }

    /// Applies `change` to `index`, which holds the documents through
    /// `loadedThrough` (added ones only when `complete`: else the loading
    /// reaches them); answers the postings it added.
    static func apply(
        _ change: Change, to index: inout ImpactIndex, loadedThrough: inout Int64, complete: Bool, _ tokenizer: ImpactTokenizer
    ) throws -> Int {
        // What a removed document held is in its stems: its text is not tokenized again.
        for document in change.removed where document.rowid <= loadedThrough { index.remove(rowid: document.rowid) }
        guard complete else { return 0 }
        let before = index.postingsAdded
        let added = change.added.sorted(by: { $0.rowid < $1.rowid }).filter { $0.rowid > loadedThrough }
        try add(added, words: change.words, to: &index, tokenizer)
        loadedThrough = added.last?.rowid ?? loadedThrough
        return index.postingsAdded - before
    }

    /// Gives back the memory its postings grew into but do not use (once
    /// many documents were added: after loading, after a long catch-up).
    public func trim() {
        state.write { $0.index.trim() }
        FreeMemory.giveBack()
    }

    /// Lets go of the room a batch of documents was held in while added,
    /// kept for the next while batches come large: a catch-up ended.
    public func letGoOfBatchRoom() {
        state.write { $0.index.letGoOfBatchRoom() }
    }

    /// Whether it keeps room for large batches (`letGoOfBatchRoom`).
    public var holdsBatchRoom: Bool { state.read { $0.index.holdsBatchRoom } }

    /// The rowid the documents it holds reach.
    public var loadedThrough: Int64 { state.read { $0.loadedThrough } }

    /// Takes a saved index (`saved`) as what it holds: complete at once
    /// when the table holds no document past `loadedThrough` (`complete`);
    /// else the loading reads those, and until it has, `apply` leaves the
    /// documents added to it (one it added past them would make the
    /// loading skip them).
    public func restore(_ index: ImpactIndex, loadedThrough: Int64, complete: Bool) {
        state.write { $0 = State(index: index, loadedThrough: loadedThrough, complete: complete, version: $0.version + 1) }
    }

    /// Forgets what it holds, to be loaded again from the first document.
    public func unload() {
        state.write { $0 = State(version: $0.version + 1) }
    }

    /// Takes out the documents it holds up to `loadedThrough` that the
    /// table no longer does (`live`: the table's rowids up to there).
    public func keepOnly(_ live: [Int64]) {
        state.write { state in
            state.version += 1
            state.sinceSaved = nil
            _ = state.index.keepOnly(live)
        }
    }

    /// The table was emptied: so is this, and it is complete.
    public func reset() {
        state.write { state in
            let through = max(state.loadedThrough, Int64(state.index.lengths.count) - 1)
            state = State(index: ImpactIndex(), loadedThrough: through, complete: true, version: state.version + 1)
        }
    }

    /// Adds `documents` (in rowid order, past every one it holds), with
    /// the words of those already found (`words`, by rowid).
    private static func add(_ documents: [Document], words: [Int64: Words] = [:], to index: inout ImpactIndex, _ tokenizer: ImpactTokenizer) throws {
        let stemmed = try documents.map { document in
            let words = try words[document.rowid] ?? (tokenizer.packedWords(in: document.title), tokenizer.packedWords(in: document.content))
            let title = try tokenizer.stems(of: words.title, adding: &index)
            return StemmedDocument(rowid: document.rowid, title: title, content: try tokenizer.stems(of: words.content, adding: &index))
        }
        index.add(stemmed)
    }

    /// The best `keep` documents for `query` (the last word unfinished when
    /// `lastIsUnfinished`), or nil before every document is loaded. A
    /// phrase of several words is found in the documents' stems
    /// (`DocumentStems`): one phrase alone as `ImpactPhrase` does, beside
    /// other terms as `ImpactPhrases` does.
    public func rank(_ query: String, keep: Int, lastIsUnfinished: Bool = true) throws(PostsError) -> RankedRows? {
        try rank(terms: SearchQuery.terms(in: query), keep: keep, lastIsUnfinished: lastIsUnfinished)
    }

    /// `rank(_:keep:lastIsUnfinished:)` for a query already read into its
    /// terms (`SearchQuery.terms`): a search reads its query once.
    public func rank(terms: [SearchQuery.Term], keep: Int, lastIsUnfinished: Bool = true) throws(PostsError) -> RankedRows? {
        guard !terms.isEmpty else { return RankedRows(rowids: [], scores: [], total: 0, totalIsExact: true) }
        return try tokenizing { tokenizer in
            try self.state.read { state in
                guard state.complete else { return nil }
                let index = state.index
                if let phrase = try ImpactQuery.phrase(for: terms, in: index, tokenizer: tokenizer) {
                    return Self.rank(phrase: phrase, keep: keep, in: index)
                }
                if let groups = try ImpactQuery.groups(for: terms, lastIsUnfinished: lastIsUnfinished, in: index, tokenizer: tokenizer) {
                    let found = ImpactSearch.best(keep, of: groups, in: index, exactCount: Self.exactCount)
                    return RankedRows(found, terms: groups.map(QueryTerm.anyOf))
                }
                let mixed = try ImpactQuery.terms(for: terms, lastIsUnfinished: lastIsUnfinished, in: index, tokenizer: tokenizer)
                return Self.rank(mixed, keep: keep, in: index)
            }
        }
    }

    /// A query of one phrase (`ImpactQuery.phrase`): the phrase counted
    /// in the stems of each document that may reach the page.
    static func rank(phrase: [Int32?], keep: Int, in index: ImpactIndex, exactChecks: Int = exactCount) -> RankedRows {
        // A word no document holds: nor does any the phrase.
        let stems = phrase.compactMap { $0 }
        guard stems.count == phrase.count else { return RankedRows(rowids: [], scores: [], total: 0, totalIsExact: true) }
        let found = ImpactPhrase.best(keep, phrase: PackedPhrase(stems), in: index, exactChecks: exactChecks)
        return RankedRows(found, terms: [.phrase(stems)])
    }

    /// A query with a phrase beside other terms (`ImpactQuery.terms`; nil
    /// for a phrase with a word no document holds): its phrases counted in
    /// the stems of every document that holds a phrase's words.
    static func rank(_ terms: [QueryTerm]?, keep: Int, in index: ImpactIndex) -> RankedRows {
        guard let terms else { return RankedRows(rowids: [], scores: [], total: 0, totalIsExact: true) }
        let (phrases, documentStems) = (terms.phrases.map(PackedPhrase.init), index.documentStems)
        let found = ImpactPhrases.best(keep, terms: terms, in: index) { rowid in documentStems.counts(of: phrases, in: Int(rowid)) }
        return RankedRows(found, terms: terms)
    }

    /// Where each hit's columns hold its query's terms: each token of a
    /// word (or completion) that matched it, each run of a phrase's stems
    /// (for the snippets; no FTS5 query, whose prefix would read every
    /// completion's postings again for each hit).
    public func instances(in hits: [[String]], of ranked: RankedRows) throws(PostsError) -> [[PhraseInstance]] {
        var termOf: [Int32: Int] = [:]
        var phrases: [(term: Int, stems: [Int32])] = []
        for (term, kind) in ranked.terms.enumerated() {
            switch kind {
            case .anyOf(let stems): for stem in stems where termOf[stem] == nil { termOf[stem] = term }
            case .phrase(let stems): phrases.append((term, stems))
            }
        }
        return try tokenizing { tokenizer in
            try self.state.read { state in
                try hits.map { columns in
                    var found: [PhraseInstance] = []
                    for (column, text) in columns.enumerated() {
                        let stems = try tokenizer.knownStems(of: text, in: state.index)
                        for (term, phrase) in phrases {
                            found += ImpactPhrase.starts(of: phrase, in: stems).map {
                                PhraseInstance(phrase: term, column: column, tokens: $0..<($0 + phrase.count))
                            }
                        }
                        for (position, stem) in stems.enumerated() {
                            guard let stem, let term = termOf[stem] else { continue }
                            found.append(PhraseInstance(phrase: term, column: column, tokens: position..<(position + 1)))
                        }
                    }
                    return found
                }
            }
        }
    }

    /// Postings held, documents and distinct stems: what the index costs.
    public var size: (postings: Int, documents: Int64, stems: Int) {
        state.read { state in
            (state.index.postings.reduce(0) { $0 + $1.count }, state.index.rows, state.index.vocabulary.stems.count)
        }
    }

    /// Its postings read in place from a saved file, and those in memory of
    /// its own (built, or changed since the file was taken up).
    public var postingsHeld: (mapped: Int, inMemory: Int) { state.read { $0.index.postingsHeld } }

    /// Its documents' stems (`DocumentStems`, 4-byte values) read in place
    /// from a saved file, and those in memory of its own.
    public var stemsHeld: (mapped: Int, inMemory: Int) { state.read { $0.index.stemsHeld } }

    /// Runs `body` with a tokenizer of its own: one not in use, or a new
    /// one should every one be.
    func tokenizing<T>(_ body: (ImpactTokenizer) throws -> T) throws(PostsError) -> T {
        do {
            return try tokenizers.use(making: makeTokenizer) { tokenizer in try body(ImpactTokenizer(tokenizer)) }
        } catch {
            throw .failed("search ranking: \(error)")
        }
    }
}

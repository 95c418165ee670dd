import GRDB

/// How the documents' text is stored (`DocumentText`): trained once the
/// index holds enough documents, and followed where another process may
/// train or forget it.
extension SQLiteSearchIndex {
    /// The text to store documents with from this write on, when it is the
    /// time to train the dictionary (`DocumentText.trained`): the index has
    /// none, and holds `documents`, at least `trainingAt`. Nil otherwise.
    func trainedText(_ db: Database, current: DocumentText, documents: Int) throws -> DocumentText? {
        guard current.dictionary == nil, documents >= trainingAt.load(ordering: .relaxed) else { return nil }
        guard let trained = try DocumentText.trained(db, documents: documents) else {
            trainingAt.store(documents * 2, ordering: .relaxed)
            return nil
        }
        return trained
    }

    /// The text the index's documents are stored with now: the one this
    /// process holds, or, should the file's dictionary differ (another
    /// process trained or forgot one), the file's, read again. One small
    /// read in the caller's transaction.
    func currentText(_ db: Database) throws -> DocumentText {
        let id = try DocumentText.storedID(db)
        return try text.withLock { held in
            if held.id != id { held = try DocumentText.stored(db) }
            return held
        }
    }

    /// The text to read documents with: the file's now (`currentText`) where
    /// another process may write it; else the one held, which only this
    /// process's writes change (a search spares the read of the file's).
    func readText(_ db: Database) throws -> DocumentText {
        readsInTransaction ? try currentText(db) : text.withLock { $0 }
    }
}

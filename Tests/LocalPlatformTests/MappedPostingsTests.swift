import Domain
import Foundation
@testable import LocalPlatform
@testable import Search
import TestSupport
import Testing

/// The saved postings read in place from their mapped file: in the
/// process's own memory only what was added since.
extension SavedRankingTests {
    @Test func test_oncePostingsAreSaved_theyAreReadInPlace_andOnlyWhatIsAddedSince_isHeldInMemory() async throws {
        try await withDatabase { path in
            let (index, _) = try await built(at: path)
            let before = try await pages(index)
            let total = index.ranker.size.postings
            #expect(index.ranker.postingsHeld == (mapped: 0, inMemory: total), "built in memory of its own")
            let held = index.ranker.stemsHeld.inMemory
            #expect(index.ranker.stemsHeld == (mapped: 0, inMemory: held) && held > total / 4, "each document's stems too")
            // Posts were edited and deleted (`built`): the file keeps the stems of the live ones, as a build from them holds.
            let stems = try await loadedFromDocuments(path).ranker.stemsHeld.inMemory
            #expect(stems < held, "removed posts' stems were held: \(stems) against \(held)")
            _ = try #require(try await index.saveRanking())
            #expect(index.ranker.postingsHeld == (mapped: total, inMemory: 0), "read in place once saved")
            #expect(index.ranker.stemsHeld == (mapped: stems, inMemory: 0), "and the live posts' stems, none of the removed")
            #expect(try await pages(index) == before)

            let reopened = try opened(path)
            #expect(try await reopened.restoreRanking() == .restored(removed: 0))
            #expect(reopened.ranker.postingsHeld == (mapped: total, inMemory: 0), "a start maps them, copying none")
            #expect(reopened.ranker.stemsHeld == (mapped: stems, inMemory: 0))
            #expect(try await pages(reopened) == before)

            // A new post of three words adds three postings in memory, one a word; the file is left as it was.
            let file = try Data(contentsOf: URL(fileURLWithPath: path + ".postings"))
            try await apply(SearchRankingTests.changes([Post(title: "Lorem", content: "file dolor")], from: 4_000), to: reopened)
            #expect(reopened.ranker.postingsHeld == (mapped: total, inMemory: 3))
            let added = reopened.ranker.stemsHeld
            #expect(added.mapped == stems && added.inMemory > 0 && added.inMemory == reopened.stemsInMemory, "its stems in memory: \(added)")
            let phrase = try await reopened.search("\"file dolor\"", limit: 10, offset: 0).hits.map(\.title)
            #expect(phrase.contains("Lorem"), "a phrase is found in the stems added since: \(phrase)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".postings")) == file)
            #expect(try await pages(reopened) == pages(loadedFromDocuments(path)))

            // Saved again, what was added is in the file too, and read in place.
            _ = try #require(try await reopened.saveRanking())
            #expect(reopened.ranker.postingsHeld == (mapped: total + 3, inMemory: 0))
            #expect(reopened.ranker.stemsHeld == (mapped: stems + added.inMemory, inMemory: 0))
            let again = try opened(path)
            #expect(try await again.restoreRanking() == .restored(removed: 0))
            #expect(try await pages(again) == pages(loadedFromDocuments(path)))
        }
    }

    @Test func test_writesThatCameWhileASaveWrote_areAppliedToTheFileItWrote_whichIsThenReadInPlace() async throws {
        try await withDatabase { path in
            let (index, live) = try await built(at: path)
            let total = index.ranker.size.postings
            // A post of three words, three edits and two deletions, after the save took its copy of the postings.
            _ = try #require(
                try await index.saveRanking(whileWriting: {
                    try await apply(SearchRankingTests.changes([Post(title: "Zyzzyva", content: "file dolor")], from: 5_000), to: index)
                    try await editAndDelete(live, edited: 0..<3, deleted: 3..<5, from: 5_001, index)
                }))
            let held = index.ranker.postingsHeld
            #expect(held.mapped == total, "read in place from the file it wrote: \(held)")
            #expect(held.inMemory > 3 && held.inMemory < total / 10, "in memory only what the writes added: \(held)")
            #expect(held.inMemory == index.postingsInMemory)
            #expect(try await pages(index) == pages(loadedFromDocuments(path)), "the same pages as the documents give")
            #expect(try await index.search("zyzzyva", limit: 10, offset: 0).hits.map(\.title) == ["Zyzzyva"])
        }
    }

    @Test func test_aSaveDuringWhichTheIndexWasEmptied_isNotTakenUp_andTheRankingStaysRight() async throws {
        try await withDatabase { path in
            let (index, _) = try await built(at: path)
            _ = try #require(try await index.saveRanking(whileWriting: { try await index.reset(database: nil) }))
            #expect(index.ranker.postingsHeld.mapped == 0, "an emptied ranking is not the file's")
            #expect(try await index.search("file", limit: 10, offset: 0).total == 0)
            try await apply(SearchRankingTests.changes([Post(title: "Zyzzyva again", content: "")], from: 1), to: index)
            #expect(try await index.search("zyzzyva", limit: 10, offset: 0).hits.map(\.title) == ["Zyzzyva again"])
        }
    }

    @Test func test_whileASaveHasKeptAllTheChangesItMay_writesWaitForItToEnd_thenApply() async throws {
        try await withDatabase { path in
            let (index, _) = try await built(at: path)
            // A save under way, kept past its bound by posts of a megabyte (their words counted too: about 3.5 MB a post).
            _ = try #require(index.ranker.saved())
            let big = (0..<16).map { Post(title: "Big \($0)", content: String(repeating: "lorem ipsum dolor ", count: 60_000)) }
            try await apply(SearchRankingTests.changes(big, from: 6_000), to: index)
            #expect(!index.ranker.hasRoomForChanges, "the save's changes are at their bound")

            let waiting = Task { try await apply(SearchRankingTests.changes([Post(title: "Zyzzyva", content: "")], from: 6_100), to: index) }
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await index.search("zyzzyva", limit: 10, offset: 0).total == 0, "the write waits for the save")
            index.ranker.forgetSave()
            try await waiting.value
            #expect(try await index.search("zyzzyva", limit: 10, offset: 0).hits.map(\.title) == ["Zyzzyva"], "then applies")
            #expect(index.ranker.hasRoomForChanges)
        }
    }

    @Test func test_aColumnThatDoesNotAscend_isRefused_andTheDocumentsAreReadInstead() async throws {
        try await withDatabase { path in
            let (index, live) = try await built(at: path)
            let expected = try await pages(index)
            _ = try #require(try await index.saveRanking())
            let id = try #require(try await index.savedPostingsID())
            let file = path + ".postings"
            var whole = try Data(contentsOf: URL(fileURLWithPath: file))
            // The columns start on the page after the compressed part; the first is the first tier's rowids.
            let (columns, compressedEnd) = Self.columnsStart(in: whole)
            #expect(whole.count > columns && whole[compressedEnd..<columns].allSatisfy { $0 == 0 }, "zeros up to the columns' page")
            whole.replaceSubrange(columns..<(columns + 4), with: [0xFF, 0xFF, 0xFF, 0x7F])
            try whole.write(to: URL(fileURLWithPath: file))
            #expect(throws: StoredPostingsError.self) { _ = try StoredPostings.read(from: file, id: id) }

            _ = try await refusedAndReadInstead(path, "a damaged column", live: live.count, expected: expected)
        }
    }

    /// A tier whose rowids ascend but whose last is past every document
    /// (no length for it) is refused too: a search would read past the
    /// documents' lengths.
    @Test func test_aPostingPastTheLastDocument_isRefused_andTheDocumentsAreReadInstead() async throws {
        try await withDatabase { path in
            let (index, live) = try await built(at: path)
            let expected = try await pages(index)
            _ = try #require(try await index.saveRanking())
            let id = try #require(try await index.savedPostingsID())
            // The columns in the order they are written: each term's tiers, each tier's rowids then counts.
            let counts = index.ranker.state.read { state in
                state.index.postings.indices.flatMap { stem in
                    state.index.postings[stem].tiers.indices.map { state.index.postings[stem].tiers[$0].rowids.count }
                }
            }
            let first = try #require(counts.firstIndex { $0 > 0 })
            let file = path + ".postings"
            var whole = try Data(contentsOf: URL(fileURLWithPath: file))
            let columns = Self.columnsStart(in: whole).columns
            // The last rowid of the first tier that holds any, made larger than any document's.
            let last = columns + 4 * (2 * counts[..<first].reduce(0, +) + counts[first] - 1)
            whole.replaceSubrange(last..<(last + 4), with: [0xF0, 0xFF, 0xFF, 0x7F])
            try whole.write(to: URL(fileURLWithPath: file))
            #expect(throws: StoredPostingsError.self) { _ = try StoredPostings.read(from: file, id: id) }

            _ = try await refusedAndReadInstead(path, "a posting past the last document", live: live.count, expected: expected)
        }
    }

    @Test func test_documentsStemsThatDoNotAscend_areRefused_andTheDocumentsAreReadInstead() async throws {
        try await withDatabase { path in
            let (index, live) = try await built(at: path)
            let expected = try await pages(index)
            _ = try #require(try await index.saveRanking())
            let id = try #require(try await index.savedPostingsID())
            let (documents, words) = index.ranker.state.read { ($0.index.documentStems.documents, $0.index.documentStems.words.count) }
            let file = path + ".postings"
            var whole = try Data(contentsOf: URL(fileURLWithPath: file))
            // The last columns are where each document's stems start, then the stems; then the columns' byte count and magic.
            let starts = whole.count - 8 - StoredPostings.magic.count - 4 * words - 4 * (documents + 1)
            let second = starts + 4 * 2
            whole.replaceSubrange(second..<(second + 4), with: [0xFF, 0xFF, 0xFF, 0x00])
            try whole.write(to: URL(fileURLWithPath: file))
            #expect(throws: StoredPostingsError.self) { _ = try StoredPostings.read(from: file, id: id) }

            _ = try await refusedAndReadInstead(path, "damaged stems", live: live.count, expected: expected)
        }
    }

    /// Where a saved postings file's columns start (on the page after its
    /// compressed part), and where that part ends.
    private static func columnsStart(in whole: Data) -> (columns: Int, compressedEnd: Int) {
        let lengths = StoredPostings.magic.count + 1
        let compressed = whole[(lengths + 8)..<(lengths + 16)].withUnsafeBytes { Int(UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self))) }
        let end = lengths + 16 + compressed
        return ((end + StoredPostings.pageSize - 1) / StoredPostings.pageSize * StoredPostings.pageSize, end)
    }
}

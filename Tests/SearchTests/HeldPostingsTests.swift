import Foundation
@testable import Search
import TestSupport
import TestTraits
import Testing

/// Documents added a batch at a time (a catch-up's, a load's) make the
/// same index as one at a time: every posting, block bound and tier, and
/// the rebases of every bound that an average moving by a tenth brings in
/// the middle of a batch.
@Suite("Postings held for a batch", .ownThread, .timeLimit(.minutes(2)))
struct HeldPostingsTests {
    @Test func test_documentsAddedInBatches_makeTheSameSavedPostings_asOneAtATime() async throws {
        var random = SeededGenerator(seed: 44)
        // Stems drawn unevenly (a common few, many rare ones); lengths that
        // jump now and then, so that the average moves inside batches.
        func stems(_ count: Int) -> [Int32] {
            (0..<count).map { _ in Int32(min(Double(5_000), 1 / (Double.random(in: 0.0002...1, using: &random))) - 1) }
        }
        var documents: [StemmedDocument] = []
        var rowid: Int64 = 1
        for index in 0..<6_000 {
            rowid += Int64.random(in: 1...3, using: &random)  // gaps, as removed documents leave
            let content = index % 997 == 0 ? 4_000 : Int.random(in: 0...60, using: &random)
            documents.append(StemmedDocument(rowid: rowid, title: stems(Int.random(in: 0...8, using: &random)), content: stems(content)))
        }
        var one = ImpactIndex()
        for document in documents { one.add(rowid: document.rowid, title: document.title, content: document.content) }
        var batched = ImpactIndex()
        var start = 0
        while start < documents.count {
            let end = min(documents.count, start + Int.random(in: 1...1_500, using: &random))
            batched.add(Array(documents[start..<end]))
            start = end
        }
        #expect(try saved(batched) == saved(one))
        #expect(batched.postingsAdded == one.postingsAdded && batched.postings.count == one.postings.count)
    }

    /// The file `StoredPostings` writes of `index`, under one id.
    private func saved(_ index: ImpactIndex) throws -> Data {
        let directory = try makeTemporaryDirectory("held")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/postings"
        try StoredPostings.write(index, loadedThrough: 0, id: UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)), to: path)
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }
}

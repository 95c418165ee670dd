@testable import Search
import TestSupport
import Testing

/// Each document's stems, kept in order where a phrase is counted: what
/// goes in comes out, whatever the stem numbers' size, and a phrase is
/// counted as FTS5 counts it.
@Suite("Document stems", .timeLimit(.minutes(1)))
struct DocumentStemsTests {
    @Test func test_eachDocumentsStems_comeBackAsTheyWentIn_acrossGapsAndNumbersOfEverySize() async {
        var stems = DocumentStems()
        // Numbers at each varint length's edges, up to the largest a stem may have.
        let large: [Int32] = [0, 127, 128, 16_383, 16_384, 2_097_151, 2_097_152, 268_435_455, 268_435_456, Int32.max]
        stems.add(rowid: 1, title: [5, 6], content: large)
        stems.add(rowid: 2, title: [], content: [])
        stems.add(rowid: 7, title: large.reversed(), content: [])
        stems.add(rowid: 8, title: [], content: [1, 1, 1])
        #expect(stems.documents == 9)
        #expect(stems.stems(of: 1) == ([5, 6], large))
        #expect(stems.stems(of: 2) == ([], []))
        #expect(stems.stems(of: 7) == (Array(large.reversed()), []))
        #expect(stems.stems(of: 8) == ([], [1, 1, 1]))
        for none in [-1, 0, 3, 6, 9, 1_000] { #expect(stems.stems(of: none) == ([], []), "rowid \(none) holds nothing") }
    }

    @Test func test_aPhrasesCount_weighsTheTitle_andCountsOverlappingOnesEach_asFTS5Does() async {
        var stems = DocumentStems()
        stems.add(rowid: 0, title: [3, 4, 9], content: [1, 1, 1, 2, 1, 1, 3, 4])
        let packed = { (phrases: [[Int32]]) in phrases.map(PackedPhrase.init) }
        #expect(stems.counts(of: packed([[1, 1], [3, 4], [4, 3], [1, 2, 1], [9]]), in: 0) == [3, 10 + 1, 0, 1, 10])
        #expect(stems.counts(of: packed([[3, 4]]), in: 5) == [0], "a rowid it does not hold")
        stems.add(rowid: 1, title: [], content: [1, 1, 1])
        #expect(stems.counts(of: packed([[1, 1, 1, 1], [1, 1, 1]]), in: 1) == [0, 1], "a phrase longer than the column, and as long")
        #expect(stems.count(of: PackedPhrase([1, 1]), in: 1) == 2)
    }

    @Test func test_aPhrasesCount_isWholeStemsOnly_neverBytesInsideOne_norThePaddingAfterTheLast() async {
        var stems = DocumentStems()
        // 128 packs as 0x80 0x01, 16,384 as 0x80 0x80 0x01: a 0 or a 1 inside them is no stem.
        stems.add(rowid: 0, title: [128], content: [16_384, 1, 128, 0])
        #expect(stems.count(of: PackedPhrase([1]), in: 0) == 1, "the 1 alone, not the ends of 128 and 16,384")
        #expect(stems.count(of: PackedPhrase([0]), in: 0) == 1, "the last stem, not the padding after it nor the 0x80s")
        #expect(stems.count(of: PackedPhrase([128]), in: 0) == 10 + 1, "title and content, not the end of 16,384")
        #expect(stems.count(of: PackedPhrase([128, 0]), in: 0) == 1)
        #expect(stems.count(of: PackedPhrase([0, 0]), in: 0) == 0, "a zero stem and the padding after it")
        // Title and content are apart: a phrase across the two is in neither.
        #expect(stems.count(of: PackedPhrase([128, 16_384]), in: 0) == 0)
        stems.add(rowid: 1, title: [0, 0], content: [0])
        #expect(stems.count(of: PackedPhrase([0, 0]), in: 1) == 10)
        #expect(stems.count(of: PackedPhrase([0]), in: 1) == 2 * 10 + 1)
    }

    @Test func test_aPhrasesCountInPackedBytes_isTheCountInTheDecodedStems_forAnyDocument() async {
        // Stem numbers of every varint length, few distinct ones so phrases occur; a fixed seed.
        var random = SeededGenerator(seed: 44)
        let numbers: [Int32] = [0, 1, 2, 127, 128, 255, 16_383, 16_384, 2_097_152, Int32.max]
        var stems = DocumentStems()
        for rowid in 0..<400 {
            let column = { (most: Int) in (0..<Int.random(in: 0...most, using: &random)).map { _ in numbers.randomElement(using: &random)! } }
            let (title, content) = (column(4), column(40))
            stems.add(rowid: rowid, title: title, content: content)
            for length in 1...3 {
                for _ in 0..<8 {
                    let phrase = (0..<length).map { _ in numbers.randomElement(using: &random)! }
                    let decoded = { (column: [Int32]) in column.withUnsafeBufferPointer { UInt32(DocumentStems.occurrences(of: phrase, in: $0)) } }
                    let expected = decoded(title) * ImpactIndex.titleWeight + decoded(content)
                    #expect(stems.count(of: PackedPhrase(phrase), in: rowid) == expected, "\(phrase) in \(title) / \(content)")
                }
            }
        }
    }

    @Test func test_columnsThatDoNotDescribeTheDocuments_areRefused() async {
        var stems = DocumentStems()
        stems.add(rowid: 0, title: [1], content: [2, 3])
        stems.add(rowid: 1, title: [4], content: [5])
        let column = { (values: [UInt32]) in values.reduce(into: PostingColumn()) { $0.append($1) } }
        let (starts, words) = (Array(stems.starts), Array(stems.words))
        #expect(DocumentStems(starts: stems.starts, words: stems.words, documents: 2) != nil)
        #expect(DocumentStems(starts: stems.starts, words: stems.words, documents: 3) == nil, "a start for each document and one more")
        #expect(DocumentStems(starts: column([0, starts[2], starts[1]]), words: stems.words, documents: 2) == nil, "starts that descend")
        #expect(DocumentStems(starts: column([1] + starts.dropFirst()), words: stems.words, documents: 2) == nil, "the first not at 0")
        #expect(DocumentStems(starts: stems.starts, words: column(words.dropLast()), documents: 2) == nil, "stems that end early")
    }

    @Test func test_aDamagedCount_neverReadsPastItsDocument() async {
        var stems = DocumentStems()
        stems.add(rowid: 0, title: [1], content: [2])
        stems.add(rowid: 1, title: [3], content: [4])
        var words = Array(stems.words)
        words[0] = 0x7F_7F  // counts of 127 and 127, for a document of two stems
        let damaged = DocumentStems(starts: stems.starts, words: words.reduce(into: PostingColumn()) { $0.append($1) }, documents: 2)
        let read = damaged?.stems(of: 0)
        #expect(read.map { $0.title.count + $0.content.count <= 4 } == true, "at most the bytes of its own values: \(String(describing: read))")
        #expect(damaged.map { $0.stems(of: 1) == ([3], [4]) } == true)
    }
}

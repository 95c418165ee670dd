import Foundation

/// #26's classes of query, drawn from the corpus itself so that they mean
/// the same at any size: words by how many posts hold them, a common word's
/// first letters as typed, two and three common words, and a phrase that
/// occurs. Each class is a handful of queries, cycled.
struct QueryClasses {
    let classes: [(name: String, queries: [String])]

    /// Reads `corpus` (JSON Lines of posts) once for each word's document count.
    init(corpus: String) throws {
        var documents: [Substring: Int] = [:]
        var phrases: [String] = []
        let text = try String(contentsOfFile: corpus, encoding: .utf8)
        for line in text.split(separator: "\n") {
            guard let start = line.range(of: #""content": ""#) ?? line.range(of: #""content":""#) else { continue }
            let content = line[start.upperBound...].prefix { $0 != "\"" }.lowercased()
            let words = content.split { !$0.isLetter && !$0.isNumber }
            for word in Set(words) { documents[Substring(word), default: 0] += 1 }
            if phrases.count < 5, words.count >= 6, words[2].count >= 4, words[3].count >= 4 { phrases.append("\"\(words[2]) \(words[3])\"") }
        }
        // Ties by the word: the same classes in every run (a dictionary's order is not).
        let ranked = documents.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { (word: String($0.key), posts: $0.value) }
        let total = ranked.first?.posts ?? 1
        let common = ranked.prefix(5).map(\.word)
        let longCommon = ranked.filter { $0.word.count >= 4 }.prefix(5).map(\.word)
        // Mid: held by about 1% of the posts the most common word is; rare: by 2 to 5 posts.
        let mid = ranked.filter { $0.posts <= max(2, total / 100) && $0.word.count >= 3 }.prefix(5).map(\.word)
        let rare = ranked.filter { (2...5).contains($0.posts) && $0.word.count >= 4 }.prefix(5).map(\.word)
        let pairs = (0..<5).map { "\(common[$0 % common.count]) \(longCommon[$0 % longCommon.count])" }
        let triples = (0..<5).map { "\(common[$0 % common.count]) \(longCommon[($0 + 1) % longCommon.count]) \(longCommon[$0 % longCommon.count])" }
        classes = [
            ("a common word (as a prefix: the last word always is)", common),
            ("a mid-frequency word", mid),
            ("a rare word", rare),
            ("1 letter of a common word", longCommon.map { String($0.prefix(1)) }),
            ("2 letters of a common word", longCommon.map { String($0.prefix(2)) }),
            ("3 letters of a common word", longCommon.map { String($0.prefix(3)) }),
            ("4 letters of a common word", longCommon.map { String($0.prefix(4)) }),
            ("two common words", pairs),
            ("three common words", triples),
            ("a quoted phrase that occurs", phrases),
        ].filter { !$0.1.isEmpty }
    }
}

/// A hit's snippet: up to `Snippet.tokens` tokens of one column around
/// where the query's phrases matched, "…" where text was left out, and the
/// ranges of the matched words (`Highlights`). Made for the page's hits only, from
/// where ranking found the query's terms (`ImpactRanker.instances`).
///
/// The window: in each column, the run of `tokens` tokens that holds the
/// most different phrases, then the most matches; the content wins a tie
/// with the title (every client shows the title beside the snippet), and
/// the earlier run a tie within a column. It is moved back so that what it
/// holds sits in its middle, and back from the column's end when the column
/// ends first.
public enum Snippet {
    public static let tokens = 16

    /// Where the window starts, and in which column.
    public static func window(_ instances: [PhraseInstance]) -> (column: Int, start: Int)? {
        var best: (column: Int, start: Int, score: Int)?
        // The last column first: an earlier one must do better to win.
        let columns = Set(instances.map(\.column)).sorted(by: >)
        for column in columns {
            let found = instances.filter { $0.column == column }.sorted { $0.tokens.lowerBound < $1.tokens.lowerBound }
            var counts: [Int: Int] = [:]
            var end = 0  // the first instance past the window
            for (first, instance) in found.enumerated() {
                let start = instance.tokens.lowerBound
                while end < found.count, found[end].tokens.lowerBound < start + tokens {
                    counts[found[end].phrase, default: 0] += 1
                    end += 1
                }
                let score = counts.count * 1_000 + (end - first)
                if score > best?.score ?? -1 {
                    let reach = found[first..<end].map { min($0.tokens.upperBound, start + tokens) }.max() ?? start + 1
                    best = (column, max(0, start - (tokens - (reach - start)) / 2), score)
                }
                counts[instance.phrase]! -= 1
                if counts[instance.phrase] == 0 { counts[instance.phrase] = nil }
            }
        }
        return best.map { ($0.column, $0.start) }
    }

    /// The snippet of `text` (UTF-8) and its highlights, its tokens at
    /// `offsets` (byte ranges, as far as the tokenizer was asked to go:
    /// `complete` when it reached the end), the window starting at token
    /// `start`.
    public static func cut(
        _ text: UnsafeBufferPointer<UInt8>, offsets: [Range<Int>], complete: Bool, start: Int,
        highlighting instances: [PhraseInstance]
    ) -> (text: String, highlights: [Range<Int>]) {
        var line = Highlights(capacity: min(text.count, 256))
        guard !offsets.isEmpty else {
            line.append(text[...])
            return (line.text(), [])
        }
        let start = complete ? max(0, min(start, offsets.count - tokens)) : min(start, offsets.count - 1)
        let end = min(start + tokens, offsets.count)
        let leftOut = (before: start > 0, after: !(complete && end == offsets.count))
        let from = leftOut.before ? offsets[start].lowerBound : 0
        let to = leftOut.after ? offsets[end - 1].upperBound : text.count
        var marks: [Range<Int>] = []
        for instance in instances.sorted(by: { $0.tokens.lowerBound < $1.tokens.lowerBound }) {
            let tokens = instance.tokens.clamped(to: start..<end)
            guard !tokens.isEmpty else { continue }
            let bytes = offsets[tokens.lowerBound].lowerBound..<offsets[tokens.upperBound - 1].upperBound
            if let last = marks.last, last.upperBound >= bytes.lowerBound {
                marks[marks.count - 1] = last.lowerBound..<max(last.upperBound, bytes.upperBound)
            } else {
                marks.append(bytes)
            }
        }
        if leftOut.before { line.append("…") }
        var position = from
        for mark in marks {
            line.append(text[position..<mark.lowerBound])
            line.appendHighlighted(text[mark])
            position = mark.upperBound
        }
        line.append(text[position..<to])
        if leftOut.after { line.append("…") }
        return (line.text(), line.ranges)
    }
}

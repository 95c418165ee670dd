import Domain
import Foundation
import Synchronization

/// Splits a marked-up snippet (`Snippet.marked`) into text and highlighted ranges.
enum Highlights {
    static let open: Unicode.Scalar = "\u{E000}"
    static let close: Unicode.Scalar = "\u{E001}"

    /// The text without the two marker characters, so that in a snippet
    /// they can only be the snippet's (they are private-use characters; searching
    /// loses nothing by dropping them).
    /// Both markers' UTF-8 starts with the byte 0xEE, which most texts
    /// lack: a byte scan for it spares decoding their scalars, which was
    /// 1.9% of a search worker's CPU samples while it built its index.
    static func unmarked(_ text: String) -> String {
        var text = text
        guard text.withUTF8({ $0.contains(0xEE) }),
            text.unicodeScalars.contains(where: { $0 == open || $0 == close })
        else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != open && $0 != close }))
    }

    /// Runs of spaces, line breaks and control characters become one space
    /// (a snippet is one line), so ranges count scalars of the text returned.
    static func split(_ marked: String) -> (String, [Range<Int>]) {
        var text: [UInt8] = []  // UTF-8, made into one String at the end
        text.reserveCapacity(marked.utf8.count)
        var count = 0  // scalars in `text`
        var endsInSpace = false
        var ranges: [Range<Int>] = []
        var start: Int?
        for scalar in marked.unicodeScalars {
            if isSpaceOrControl(scalar) {
                if count > 0, !endsInSpace {
                    text.append(UInt8(ascii: " "))
                    count += 1
                    endsInSpace = true
                }
            } else if scalar == open {
                start = count
            } else if scalar == close, let from = start {
                if count > from { ranges.append(from..<count) }
                start = nil
            } else {
                text.append(contentsOf: UTF8.encode(scalar).unsafelyUnwrapped)
                count += 1
                endsInSpace = false
            }
        }
        if endsInSpace { text.removeLast() }
        return (String(decoding: text, as: UTF8.self), ranges)
    }

    /// White space or a control character; ASCII is decided without
    /// Unicode's tables (most snippets are ASCII; the lookups were a tenth
    /// of a search worker's time).
    @inline(__always)
    static func isSpaceOrControl(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value <= 0x20 || scalar.value == 0x7F }
        return scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
    }
}

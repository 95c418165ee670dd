/// A snippet as one line, with the ranges of its highlights: runs of
/// spaces, line breaks and control characters become one space (a snippet
/// is one line), and ranges count the scalars of the text made. Built in
/// one pass from the column's text as `Snippet.cut` walks it; no marker is
/// put into the text, so none need be kept out of what is indexed.
struct Highlights {
    private var utf8: [UInt8] = []
    /// Scalars in `utf8`.
    private var count = 0
    private var endsInSpace = false
    private(set) var ranges: [Range<Int>] = []

    init(capacity: Int) { utf8.reserveCapacity(capacity) }

    /// Appends `text`'s scalars, as a snippet shows them.
    mutating func append(_ text: String) {
        for scalar in text.unicodeScalars {
            if Self.isSpaceOrControl(scalar) {
                if count > 0, !endsInSpace {
                    utf8.append(UInt8(ascii: " "))
                    count += 1
                    endsInSpace = true
                }
            } else {
                utf8.append(contentsOf: UTF8.encode(scalar).unsafelyUnwrapped)
                count += 1
                endsInSpace = false
            }
        }
    }

    /// Appends the UTF-8 `bytes` (whole scalars).
    mutating func append(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) {
        append(String(decoding: UnsafeBufferPointer(rebasing: bytes), as: UTF8.self))
    }

    /// Appends `bytes` as a highlight (none when they show as nothing).
    mutating func appendHighlighted(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) {
        let start = count
        append(bytes)
        if count > start { ranges.append(start..<count) }
    }

    /// The line, without a space at its end.
    func text() -> String {
        String(decoding: endsInSpace ? utf8.dropLast() : utf8[...], as: UTF8.self)
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

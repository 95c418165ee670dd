/// An editable text and its cursor, edited by keys. `multiline` fields take
/// Enter as a new line; others leave Enter to the screen.
struct TextField: Equatable {
    private(set) var characters: [Character]
    private(set) var cursor: Int
    let multiline: Bool

    init(_ text: String = "", multiline: Bool = false) {
        characters = Array(text)
        cursor = characters.count
        self.multiline = multiline
    }

    var text: String { String(characters) }

    /// Applies `key`; says whether it was an edit or a cursor move (a key
    /// the field does not use is left to the screen).
    mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .character(let character):
            characters.insert(character, at: cursor)
            cursor += 1
        case .enter where multiline:
            characters.insert("\n", at: cursor)
            cursor += 1
        case .backspace:
            guard cursor > 0 else { return true }
            cursor -= 1
            characters.remove(at: cursor)
        case .delete:
            guard cursor < characters.count else { return true }
            characters.remove(at: cursor)
        case .up where multiline: cursor = position(lineOffset: -1)
        case .down where multiline: cursor = position(lineOffset: 1)
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(characters.count, cursor + 1)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = characters.count
        case .control("u"):
            characters.removeAll()
            cursor = 0
        default:
            return false
        }
        return true
    }

    /// The cursor's place on the line above (-1) or below (1), in the same
    /// column or at the end of a shorter line; the start or end of the text
    /// when there is no such line.
    private func position(lineOffset: Int) -> Int {
        let start = characters[..<cursor].lastIndex(of: "\n").map { $0 + 1 } ?? 0
        let column = cursor - start
        if lineOffset < 0 {
            guard start > 0 else { return 0 }
            let above = characters[..<(start - 1)].lastIndex(of: "\n").map { $0 + 1 } ?? 0
            return min(above + column, start - 1)
        }
        guard let end = characters[cursor...].firstIndex(of: "\n") else { return characters.count }
        let belowEnd = characters[(end + 1)...].firstIndex(of: "\n") ?? characters.count
        return min(end + 1 + column, belowEnd)
    }

    /// The text as screen lines of at most `width` characters, the cursor
    /// shown in reverse video when `focused`.
    func lines(width: Int, focused: Bool) -> [String] {
        layout(width: width, focused: focused).lines
    }

    /// The lines, and which of them holds the cursor.
    func layout(width: Int, focused: Bool) -> (lines: [String], cursorLine: Int) {
        let width = max(1, width)
        var lines: [String] = []
        var line = ""
        var count = 0
        func breakLine() {
            lines.append(line)
            (line, count) = ("", 0)
        }
        var cursorLine = 0
        for index in 0...characters.count {
            let character = index < characters.count ? characters[index] : " "
            let isCursor = focused && index == cursor
            if index == cursor { cursorLine = lines.count + (count + Style.columns(character) > width && !character.isNewline ? 1 : 0) }
            if character.isNewline {
                if isCursor { line += Style.reverse(" ") }
                breakLine()
                continue
            }
            if index == characters.count && !isCursor { break }
            let columns = Style.columns(character)
            if count + columns > width { breakLine() }
            let shown = String(Style.printable(character))
            line += isCursor ? Style.reverse(shown) : shown
            count += columns
        }
        lines.append(line)
        return (lines, cursorLine)
    }
}

import Application

/// A selection in a list that scrolls to keep it in view.
struct ListCursor {
    var selected = 0
    var top = 0

    mutating func handle(_ key: Key, count: Int, page: Int) -> Bool {
        switch key {
        case .up, .character("k"): selected -= 1
        case .down, .character("j"): selected += 1
        case .pageUp: selected -= max(1, page)
        case .pageDown, .character(" "): selected += max(1, page)
        case .home, .character("g"): selected = 0
        case .end, .character("G"): selected = count - 1
        default: return false
        }
        clamp(count: count)
        return true
    }

    mutating func clamp(count: Int) {
        selected = max(0, min(selected, count - 1))
    }

    /// The first row to show so that `selected` is visible among `rows`.
    mutating func scroll(rows: Int) -> Int {
        if selected < top { top = selected }
        if selected >= top + rows { top = selected - rows + 1 }
        top = max(0, top)
        return top
    }
}

import Application

/// One full-screen view. It only binds: keys become view-model inputs, and
/// the view model's state becomes lines. It never navigates by itself.
@MainActor
protocol Screen: AnyObject {
    var title: String { get }
    /// Key bindings for the footer.
    var keyHelp: String { get }
    /// Starts the view model.
    func start()
    /// Shown again after the screen above it closed.
    func reappear()
    func handle(_ key: Key)
    /// The body: at most `height` lines of at most `width` characters.
    func render(width: Int, height: Int) -> [String]
    func stop()
}

/// Holds the newest state of a view model's output and redraws on each.
@MainActor
class StateScreen<State: Sendable> {
    private(set) var state: State
    private var observing: Task<Void, Never>?
    let redraw: @MainActor () -> Void

    init(initial: State, redraw: @escaping @MainActor () -> Void) {
        state = initial
        self.redraw = redraw
    }

    func observe(_ states: AsyncStream<State>) {
        observing = Task { [weak self] in
            for await state in states {
                guard let self else { return }
                let old = self.state
                self.state = state
                self.changed(from: old)
                self.redraw()
            }
        }
    }

    /// Called after each new state, before the redraw.
    func changed(from old: State) {}

    func reappear() {}

    func stop() { observing?.cancel() }
}

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

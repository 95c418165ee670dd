import Application

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

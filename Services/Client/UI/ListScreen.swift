import Application
import Foundation

/// The posts, newest first; loads more on reaching the end.
@MainActor
final class ListScreen: StateScreen<PostsListState>, Screen {
    let title = "Posts"
    let keyHelp = "↑↓ move  Enter open  n new  / search  s status  r refresh  q quit"
    private let model: PostsListViewModel
    private let actions = Feed<PostsListViewModel.Action>()
    private var cursor = ListCursor()
    private var rows = 10

    init(model: PostsListViewModel, redraw: @escaping @MainActor () -> Void) {
        self.model = model
        super.init(initial: PostsListState(), redraw: redraw)
    }

    func start() {
        observe(model.transform(input: .init(actions: actions.stream)).state)
        actions.send(.load)
    }

    override func reappear() { actions.send(.load) }

    /// The selection stays on the same post when posts arrive above it.
    override func changed(from old: PostsListState) {
        if old.items.indices.contains(cursor.selected), let index = state.items.firstIndex(where: { $0.id == old.items[cursor.selected].id }) {
            cursor.selected = index
        }
        cursor.clamp(count: state.items.count)
    }

    func handle(_ key: Key) {
        if cursor.handle(key, count: state.items.count, page: rows - 1) {
            if cursor.selected >= state.items.count - 1, state.hasMore, !state.isFetching { actions.send(.loadMore) }
            return
        }
        switch key {
        case .enter, .right:
            if state.items.indices.contains(cursor.selected) { actions.send(.select(state.items[cursor.selected].id)) }
        case .character("n"): actions.send(.create)
        case .character("/"): actions.send(.search)
        case .character("s"): actions.send(.status)
        case .character("r"): actions.send(.load)
        default: break
        }
    }

    func render(width: Int, height: Int) -> [String] {
        var lines: [String] = []
        if let problem = state.problem { lines.append(Style.problem(problem, width: width)) }
        if state.items.isEmpty {
            if state.loaded {
                lines.append("No posts yet. Press n to write the first one.")
            } else if state.problem == nil {
                lines.append("Loading…")
            }
            return lines
        }
        rows = max(1, height - lines.count - 1)
        let top = cursor.scroll(rows: rows)
        for (index, item) in state.items.enumerated().dropFirst(top).prefix(rows) {
            let date = item.date
            let titleWidth = max(1, min(50, width / 2))
            let title = Style.pad(Style.fit(item.title, titleWidth), titleWidth)
            let excerpt = Style.fit(item.excerpt, max(0, width - titleWidth - date.count - 6))
            let gap = String(repeating: " ", count: max(1, width - titleWidth - Style.width(excerpt) - date.count - 4))
            let line = width < 30 ? Style.fit(item.title, width - 2) : "\(title)  \(Style.dim(excerpt))\(gap)\(date)"
            lines.append(index == cursor.selected ? Style.reverse("▸ ") + Style.bold(line) : "  " + line)
        }
        let more = state.isFetching ? "loading…" : state.hasMore ? "more below" : "end"
        lines.append(Style.dim("\(state.items.count) posts, \(more)"))
        return lines
    }
}

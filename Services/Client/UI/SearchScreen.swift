import Application
import Foundation

/// Search as you type; matches highlighted; Enter opens a post.
@MainActor
final class SearchScreen: StateScreen<SearchState>, Screen {
    let title = "Search"
    let keyHelp = "type to search  ↑↓ move  Enter open  Esc back"
    private let model: SearchViewModel
    private let actions = Feed<SearchViewModel.Action>()
    private var field = TextField()
    private var cursor = ListCursor()
    private var rows = 10

    init(model: SearchViewModel, redraw: @escaping @MainActor () -> Void) {
        self.model = model
        super.init(initial: .idle, redraw: redraw)
    }

    func start() {
        observe(model.transform(input: .init(actions: actions.stream)).state)
    }

    /// Back from a post that may have changed: search again.
    override func reappear() { actions.send(.refresh) }

    /// The hits shown: kept while the same or a newer query is searched
    /// again, so a refresh does not blank the list or lose the selection.
    private var items: [SearchItem] = []
    private var total: SearchTotal = 0

    override func changed(from old: SearchState) {
        switch state {
        case .results(_, let hits, let count):
            let selected = items.indices.contains(cursor.selected) ? items[cursor.selected].id : nil
            (items, total) = (hits, count)
            cursor.selected = hits.firstIndex { $0.id == selected } ?? cursor.selected
        case .searching:
            break
        case .idle, .empty, .failed:
            (items, total) = ([], 0)
        }
        cursor.clamp(count: items.count)
    }

    func handle(_ key: Key) {
        switch key {
        case .escape: actions.send(.back)
        case .enter:
            if items.indices.contains(cursor.selected) { actions.send(.select(items[cursor.selected].id)) }
        case .up, .down, .pageUp, .pageDown:
            _ = cursor.handle(key, count: items.count, page: rows / 2)
            redraw()
        default:
            if field.handle(key) {
                actions.send(.query(field.text))
                redraw()
            }
        }
    }

    func render(width: Int, height: Int) -> [String] {
        // A long query shows its end, where the typing is.
        var lines = ["Search: " + (field.lines(width: max(1, width - 8), focused: true).last ?? ""), ""]
        switch state {
        case .idle: lines.append(Style.dim(Style.fit("Type words; the last may be unfinished. \"Quotes\" make a phrase.", width)))
        case .searching(let query) where items.isEmpty: lines.append(Style.dim(Style.fit("Searching for “\(query)”…", width)))
        case .empty(let query): lines.append(Style.fit("No posts match “\(query)”.", width))
        case .failed(_, let problem): lines.append(Style.problem(problem, width: width))
        case .results, .searching:
            lines.append(Style.dim("\(total) found"))
            rows = max(1, (height - lines.count) / 2)
            let top = cursor.scroll(rows: rows)
            for (index, item) in items.enumerated().dropFirst(top).prefix(rows) {
                let marker = index == cursor.selected ? Style.reverse("▸ ") : "  "
                lines.append(marker + Style.bold(Style.fit(item.title, width - 2)))
                lines.append("  " + Style.highlighted(item.snippet, item.highlights, width: width - 2))
            }
        }
        return lines
    }
}

import Application
import Foundation

/// Search as you type; matches highlighted; Enter opens a post.
@MainActor
final class SearchScreen: StateScreen<SearchState>, Screen {
    let title = "Search"
    let keyHelp = "type to search  ↑↓ move  Enter open  Esc back"
    private let model: SearchViewModel
    private let query = Feed<String>(), refresh = Feed<Void>(), select = Feed<UUID>(), back = Feed<Void>()
    private var field = TextField()
    private var cursor = ListCursor()
    private var rows = 10

    init(model: SearchViewModel, redraw: @escaping @MainActor () -> Void) {
        self.model = model
        super.init(initial: .idle, redraw: redraw)
    }

    func start() {
        observe(model.transform(input: .init(query: query.stream, refresh: refresh.stream, select: select.stream, back: back.stream)).state)
    }

    /// Back from a post that may have changed: search again.
    override func reappear() { refresh.send() }

    private var items: [SearchItem] {
        if case .results(_, let items, _) = state { return items }
        return []
    }

    override func changed(from old: SearchState) { cursor.clamp(count: items.count) }

    func handle(_ key: Key) {
        switch key {
        case .escape: back.send()
        case .enter:
            if items.indices.contains(cursor.selected) { select.send(items[cursor.selected].id) }
        case .up, .down, .pageUp, .pageDown:
            _ = cursor.handle(key, count: items.count, page: rows / 2)
            redraw()
        default:
            if field.handle(key) {
                query.send(field.text)
                redraw()
            }
        }
    }

    func render(width: Int, height: Int) -> [String] {
        var lines = ["Search: " + field.lines(width: max(1, width - 8), focused: true).joined(), ""]
        switch state {
        case .idle: lines.append(Style.dim("Type words; the last may be unfinished. \"Quotes\" make a phrase."))
        case .searching(let query): lines.append(Style.dim("Searching for “\(query)”…"))
        case .empty(let query): lines.append("No posts match “\(query)”.")
        case .failed(_, let message): lines.append(Style.error(Style.fit("! \(message)", width)))
        case .results(_, let items, let total):
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

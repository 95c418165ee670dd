import Application
import Domain
import Foundation

/// Services, workers and search lag, refreshed every two seconds.
@MainActor
final class StatusScreen: StateScreen<StatusState>, Screen {
    let title = "Status"
    let keyHelp = "r refresh  Esc back"
    private let model: StatusViewModel
    private let actions = Feed<StatusViewModel.Action>()

    init(model: StatusViewModel, redraw: @escaping @MainActor () -> Void) {
        self.model = model
        super.init(initial: StatusState(), redraw: redraw)
    }

    func start() { observe(model.transform(input: .init(actions: actions.stream)).state) }

    func handle(_ key: Key) {
        switch key {
        case .character("r"): actions.send(.refresh)
        case .escape, .character("q"), .left, .backspace: actions.send(.back)
        default: break
        }
    }

    func render(width: Int, height: Int) -> [String] {
        var lines: [String] = []
        if let problem = state.problem { lines.append(Style.problem(problem, width: width)) }
        guard let status = state.status else { return lines + ["Loading…"] }
        lines += StatusTable.summary(for: status).map { Style.fit($0, width) }
        for table in StatusTable.tables(for: status) {
            lines += ["", Style.bold(Style.row(table.columns.map { ($0.title, $0.width) }, width: width))]
            for row in table.rows { lines.append(Style.row(Array(zip(row, table.columns.map(\.width))), width: width)) }
        }
        return lines
    }
}

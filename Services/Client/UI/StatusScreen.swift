import Application
import Domain
import Foundation

/// Services, workers and search lag, refreshed every two seconds.
@MainActor
final class StatusScreen: StateScreen<StatusState>, Screen {
    let title = "Status"
    let keyHelp = "r refresh  Esc back"
    private let model: StatusViewModel
    private let refresh = Feed<Void>(), back = Feed<Void>()

    init(model: StatusViewModel, redraw: @escaping @MainActor () -> Void) {
        self.model = model
        super.init(initial: StatusState(), redraw: redraw)
    }

    func start() { observe(model.transform(input: .init(refresh: refresh.stream, back: back.stream)).state) }

    func handle(_ key: Key) {
        switch key {
        case .character("r"): refresh.send()
        case .escape, .character("q"), .left, .backspace: back.send()
        default: break
        }
    }

    func render(width: Int, height: Int) -> [String] {
        var lines: [String] = []
        if let error = state.error { lines.append(Style.error(Style.fit("! \(error)", width))) }
        guard let status = state.status else { return lines + ["Loading…"] }
        lines.append(Style.fit("Source: \(status.source)" + (status.uptimeSeconds.map { String(format: "  up %.0f s", $0) } ?? ""), width))
        if let posts = status.posts { lines.append("Posts: \(posts)") }
        if !status.services.isEmpty {
            lines += ["", Style.bold(Style.fit("SERVICE      WORKERS  QUEUED  REQUESTS  ERRORS  P50 MS  P99 MS", width))]
            for service in status.services {
                let p50 = service.p50Milliseconds.map { String(format: "%.2f", $0) } ?? "-"
                let p99 = service.p99Milliseconds.map { String(format: "%.2f", $0) } ?? "-"
                lines.append(Style.fit(String(format: "%-12@ %7d %7d %9d %7d %7@ %7@", service.name as NSString, service.workers, service.queued,
                                              service.requests, service.errors, p50 as NSString, p99 as NSString), width))
            }
        }
        if !status.searchIndexes.isEmpty {
            lines += ["", Style.bold(Style.fit("SEARCH WORKER  DOCUMENTS  APPLIED  LAG", width))]
            for index in status.searchIndexes {
                lines.append(Style.fit(String(format: "pid %-9d %10d %8lld %4lld", index.worker, index.documents, index.applied, index.lag), width))
            }
        }
        return lines
    }
}

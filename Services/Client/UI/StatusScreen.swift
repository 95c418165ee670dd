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
            lines += ["", Style.bold(Style.row([("SERVICE", 12), ("WORKERS", -7), ("QUEUED", -7), ("REQUESTS", -9), ("ERRORS", -7),
                                                ("P50 MS", -7), ("P99 MS", -7)], width: width))]
            for service in status.services {
                let p50 = service.p50Milliseconds.map { String(format: "%.2f", $0) } ?? "-"
                let p99 = service.p99Milliseconds.map { String(format: "%.2f", $0) } ?? "-"
                lines.append(Style.row([(service.name, 12), ("\(service.workers)", -7), ("\(service.queued)", -7), ("\(service.requests)", -9),
                                        ("\(service.errors)", -7), (p50, -7), (p99, -7)], width: width))
            }
        }
        if !status.workers.isEmpty {
            lines += ["", Style.bold(Style.row([("WORKER", 20), ("SERVICE", 9), ("STATE", 5), ("HANDLED", -8), ("HEARD MS AGO", -13)], width: width))]
            for worker in status.workers {
                lines.append(Style.row([(worker.identity, 20), (worker.service, 9), (worker.busy ? "busy" : "idle", 5), ("\(worker.handled)", -8),
                                        (String(format: "%.0f", worker.lastHeardMilliseconds), -13)], width: width))
            }
        }
        if !status.searchIndexes.isEmpty {
            lines += ["", Style.bold(Style.row([("SEARCH WORKER", 14), ("DOCUMENTS", -10), ("APPLIED", -8), ("LAG", -5)], width: width))]
            for index in status.searchIndexes {
                lines.append(Style.row([("pid \(index.worker)", 14), ("\(index.documents)", -10), ("\(index.applied)", -8), ("\(index.lag)", -5)],
                                       width: width))
            }
        }
        return lines
    }
}

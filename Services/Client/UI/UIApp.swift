import Application
import Clocks
import Dispatch
import Domain
import Foundation
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The full-screen client: one loop on the main actor draws the top
/// screen after every event. Screens are made here, from routes, with view
/// models over whichever platform `provider` is.
@MainActor
final class UIApp {
    private let provider: UseCaseProvider
    private let source: String
    private let terminal = Terminal()
    private let events: AsyncStream<UIEvent>
    private let sink: AsyncStream<UIEvent>.Continuation
    private var coordinator: AppCoordinator!
    private var screens: [any Screen] = []
    private var signalSources: [any DispatchSourceSignal] = []

    init(provider: UseCaseProvider, source: String) {
        self.provider = provider
        self.source = source
        (events, sink) = AsyncStream.makeStream(of: UIEvent.self)
    }

    func run() async throws {
        try terminal.enter()
        defer { terminal.restore() }
        signalSources = Self.watchSignals(sink)
        KeyDecoder.readKeys { [sink] keys in sink.yield(.keys(keys)) }
        coordinator = AppCoordinator(presenter: EventPresenter(events: sink))
        coordinator.start()
        loop: for await event in events {
            switch event {
            case .keys(let keys):
                for key in keys {
                    if key == .control("c") || (key == .character("q") && screens.count == 1) { break loop }
                    screens.last?.handle(key)
                }
            case .redraw:
                break
            case .present(let route):
                let screen = makeScreen(route)
                screens.append(screen)
                screen.start()
            case .dismiss(let route):
                while screens.count > 1, let top = screens.last, !Self.shows(top, route) {
                    top.stop()
                    screens.removeLast()
                }
                screens.last?.reappear()
            case .finish:
                break loop
            }
            draw()
        }
        for screen in screens { screen.stop() }
    }

    private static func shows(_ screen: any Screen, _ route: AppRoute) -> Bool {
        switch route {
        case .list: screen is ListScreen
        case .search: screen is SearchScreen
        case .status: screen is StatusScreen
        case .create: screen is CreateScreen
        case .detail, .edit: screen is DetailScreen
        case .back: false
        }
    }

    private func makeScreen(_ route: AppRoute) -> any Screen {
        let redraw: @MainActor () -> Void = { [sink] in sink.yield(.redraw) }
        let navigator: any Navigator = coordinator
        switch route {
        case .list, .back:
            return ListScreen(
                model: PostsListViewModel(
                    posts: provider.makePostsUseCase(), watch: provider.makeWatchUseCase(),
                    navigator: navigator), redraw: redraw)
        case .detail(let uid), .edit(let uid):
            let editing = if case .edit = route { true } else { false }
            return DetailScreen(
                model: PostDetailViewModel(
                    uid: uid, posts: provider.makePostsUseCase(), navigator: navigator,
                    startEditing: editing), redraw: redraw)
        case .create:
            return CreateScreen(model: CreatePostViewModel(posts: provider.makePostsUseCase(), navigator: navigator), redraw: redraw)
        case .search:
            return SearchScreen(
                model: SearchViewModel(
                    search: provider.makeSearchUseCase(), watch: provider.makeWatchUseCase(), navigator: navigator,
                    clock: AnyClock(ContinuousClock())), redraw: redraw)
        case .status:
            return StatusScreen(
                model: StatusViewModel(
                    status: provider.makeStatusUseCase(), navigator: navigator,
                    clock: AnyClock(ContinuousClock())), redraw: redraw)
        }
    }

    private func draw() {
        guard let screen = screens.last else { return }
        let (rows, columns) = terminal.size
        let trail = screens.map(\.title).joined(separator: " › ")
        let place = Style.fit(source, columns / 2)
        var lines = [Style.bold(Style.fit("posts — \(trail)", max(0, columns - Style.width(place) - 2))) + "  " + Style.dim(place)]
        let body = screen.render(width: columns, height: max(1, rows - 2))
        lines += body.prefix(max(1, rows - 2))
        lines += Array(repeating: "", count: max(0, rows - 1 - lines.count))
        lines.append(Style.reverse(Style.pad(Style.fit(screen.keyHelp, columns), columns)))
        terminal.write("\u{1B}[H" + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\r\n"))
    }

    /// SIGTERM, SIGHUP and SIGINT end the loop (so the terminal is restored);
    /// SIGWINCH redraws at the new size.
    /// (Not on the main actor: the handlers run on a dispatch queue.)
    nonisolated private static func watchSignals(_ sink: AsyncStream<UIEvent>.Continuation) -> [any DispatchSourceSignal] {
        [(SIGTERM, UIEvent.finish), (SIGHUP, .finish), (SIGINT, .finish), (SIGWINCH, .redraw)].map { number, event in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { sink.yield(event) }
            source.resume()
            return source
        }
    }
}

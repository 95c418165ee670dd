import Application
import Clocks
import Dispatch
import Domain
import Foundation
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The coordinator's decisions, passed to the app's loop as events.
struct EventPresenter: Presenter {
    let events: AsyncStream<UIEvent>.Continuation
    func present(_ route: AppRoute) { events.yield(.present(route)) }
    func dismiss(to route: AppRoute) { events.yield(.dismiss(route)) }
    func finish() { events.yield(.finish) }
}

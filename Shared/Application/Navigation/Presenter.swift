import Synchronization

/// What the view layer does when the coordinator decides: show a screen for
/// a route on top of the others, return to one already open below, or close
/// the app.
public protocol Presenter: Sendable {
    func present(_ route: AppRoute)
    func dismiss(to route: AppRoute)
    func finish()
}

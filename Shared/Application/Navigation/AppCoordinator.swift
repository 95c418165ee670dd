import Synchronization

/// Owns navigation: a stack of routes with the list at the bottom. Asking
/// for the list, search or status while it is open below returns to it
/// rather than stacking a copy, so the stack stays short however people
/// wander. Leaving the last screen finishes the app.
public final class AppCoordinator: Navigator {
    private let presenter: any Presenter
    private let stack = Mutex<[AppRoute]>([])

    public init(presenter: any Presenter) { self.presenter = presenter }

    /// The routes open now, bottom first.
    public var routes: [AppRoute] { stack.withLock { $0 } }

    public func start() { navigate(to: .list) }

    private enum Step { case present(AppRoute), dismiss(AppRoute), finish }

    public func navigate(to route: AppRoute) {
        let step: Step = stack.withLock { stack in
            switch route {
            case .back:
                _ = stack.popLast()
                return stack.last.map(Step.dismiss) ?? .finish
            case .list, .search, .status:
                if let open = stack.firstIndex(of: route) {
                    stack.removeSubrange((open + 1)...)
                    return .dismiss(route)
                }
            case .detail, .edit, .create:
                break
            }
            stack.append(route)
            return .present(route)
        }
        switch step {
        case .present(let route): presenter.present(route)
        case .dismiss(let route): presenter.dismiss(to: route)
        case .finish: presenter.finish()
        }
    }
}

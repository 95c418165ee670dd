import Foundation

/// What a view model calls to navigate. Views never subscribe to outputs
/// just to make navigation happen.
public protocol Navigator: Sendable {
    func navigate(to route: AppRoute)
}

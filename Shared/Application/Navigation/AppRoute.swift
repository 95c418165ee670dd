import Foundation

/// Every place the app can go. View models ask for a route; the coordinator
/// decides what that means (which screen, pushed or popped).
public enum AppRoute: Sendable, Equatable {
    case list
    case detail(UUID)
    case create
    /// The detail screen, opened in edit mode.
    case edit(UUID)
    case search
    case status
    /// Leave the current screen; from the first screen, quit.
    case back
}

import Application
import Clocks
import Dispatch
import Domain
import Foundation
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// What the app's loop reacts to, in order: keys, redraws, resizes,
/// navigation decided by the coordinator, and the end.
enum UIEvent: Sendable {
    case keys([Key])
    case redraw
    case present(AppRoute)
    case dismiss(AppRoute)
    case finish
}

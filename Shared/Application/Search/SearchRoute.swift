import Foundation

/// Where the search screen can lead. A coordinator decides how.
public protocol SearchNavigator: Sendable {
    func toPost(uid: UUID)
    func back()
}

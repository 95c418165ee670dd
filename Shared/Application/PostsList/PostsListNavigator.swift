import Foundation

/// Where the posts list can lead. A coordinator decides how.
public protocol PostsListNavigator: Sendable {
    func toPost(uid: UUID)
    func toCreate()
    func toSearch()
}

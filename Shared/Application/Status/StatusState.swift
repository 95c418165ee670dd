import Clocks
import Domain
import Foundation
import Synchronization

/// What the status screen shows.
public struct StatusState: Sendable, Equatable {
    public var status: SystemStatus?
    public var isFetching = false
    public var problem: Problem?

    public init() {}
}

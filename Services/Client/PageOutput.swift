import Application
import Domain
import Foundation
import ServiceSupport
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The JSON shape of a page, for `posts list --json`.
struct PageOutput: Encodable {
    let posts: [Post]
    let nextCursor: String?
}

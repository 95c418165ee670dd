import Foundation
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

struct UIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

import Domain
import Wire
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A whole reply, written, to a method whose result is `Result`: only
/// `RPCCall.reply` makes one.
public struct RPCReply<Result>: Sendable {
    @usableFromInline let data: Data

    init(data: Data) { self.data = data }
}

import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a text is not a usable JSON value.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the text stops being JSON, in bytes from its start; nil when
    /// the text is JSON but holds a value that cannot be used.
    public var offset: Int?
    /// The dotted path of the value that cannot be used (`params.post.title`).
    public var path: String?
    public var description: String
}

extension JSONParseError {
    init(_ failure: JSONParser.Failure, bytes: Int) {
        switch failure {
        case .syntax(let offset, let detail):
            self.init(offset: offset, path: nil, description: "\(detail) at byte \(offset) of \(bytes)")
        case .tooDeep(let offset):
            self.init(offset: offset, path: nil, description: "arrays and objects nested more than \(JSONParser.maxDepth) deep")
        }
    }
}

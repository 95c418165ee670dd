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

    /// A text that is JSON but holds a value that cannot be used, named by
    /// its place (`title must be Unicode text …`).
    init(_ issue: JSONParser.Issue) {
        let place = issue.path.isEmpty ? "the document" : issue.path
        self.init(offset: nil, path: issue.path, description: "\(place) \(InvalidField(place, issue.reason).rule)")
    }
}

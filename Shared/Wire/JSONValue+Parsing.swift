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

extension JSONValue {
    /// Parses JSON text (RFC 8259) with this wire's parser: integers stay
    /// exact, and a string that is not Unicode text (a lone surrogate
    /// escape, bytes that are not UTF-8) is refused, naming where it is.
    public init(parsing data: Data) throws(JSONParseError) {
        let parsed: (value: JSONValue, issue: JSONParser.Issue?)
        switch Result(catching: { () throws(JSONParser.Failure) in try JSONParser.parse(data) }) {
        case .success(let value): parsed = value
        case .failure(let failure): throw JSONParseError(failure, bytes: data.count)
        }
        if let issue = parsed.issue {
            let place = issue.path.isEmpty ? "the document" : issue.path
            throw JSONParseError(offset: nil, path: issue.path, description: "\(place) \(InvalidField(place, issue.reason).rule)")
        }
        self = parsed.value
    }
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

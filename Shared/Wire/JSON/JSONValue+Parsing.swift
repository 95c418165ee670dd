import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension JSONValue {
    /// Parses JSON text (RFC 8259) with this wire's parser: integers stay
    /// exact, and a string that is not Unicode text (a lone surrogate
    /// escape, bytes that are not UTF-8) is refused, naming where it is.
    public init(parsing data: Data) throws(JSONParseError) {
        let result = data.withUnsafeBytes { bytes in Result { () throws(JSONParseError) in try JSONValue(parsing: bytes) } }
        self = try result.get()
    }

    /// `init(parsing:)` over bytes where they are (a frame's), copied nowhere.
    public init(parsing bytes: UnsafeRawBufferPointer) throws(JSONParseError) {
        let parsed: (value: JSONValue, issue: JSONParser.Issue?)
        switch Result(catching: { () throws(JSONParser.Failure) in try JSONParser.parse(bytes: bytes) }) {
        case .success(let value): parsed = value
        case .failure(let failure): throw JSONParseError(failure, bytes: bytes.count)
        }
        if let issue = parsed.issue { throw JSONParseError(issue) }
        self = parsed.value
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A request's `params._meta.timeoutMs` as the gateway finds it in the
/// bytes it forwards: the number, and where its digits are, so that the
/// gateway can write what is left of it when it hands the request on.
public struct RequestBudget: Sendable, Equatable {
    public var milliseconds: Int
    /// The digits' byte offsets in the body.
    public var digits: Range<Int>

    /// The budget in a request body: only the members on the way to it are
    /// read (`params`, then `_meta`), every other value skipped for
    /// structure, and reading stops once it is found. Nil when the body is
    /// not a JSON object or carries no integer budget.
    public static func find(in body: UnsafeRawBufferPointer) -> RequestBudget? {
        try? JSONParser.with(bytes: body) { parser throws(JSONParser.Failure) -> RequestBudget? in
            parser.skipSpace()
            guard parser.peek == UInt8(ascii: "{") else { return nil }
            var found: RequestBudget?
            try parser.descend(path: ["params", RequestMeta.member, RequestMeta.CodingKeys.timeoutMs.rawValue][...], depth: 1) {
                parser throws(JSONParser.Failure) in
                parser.skipSpace()
                let start = parser.index
                guard case .integer(let value) = try parser.value(depth: 3), let milliseconds = Int(exactly: value) else { return }
                found = RequestBudget(milliseconds: milliseconds, digits: start..<parser.index)
            }
            return found
        }
    }

    /// `body` with the budget's digits replaced by `milliseconds`.
    public func rewriting(_ body: UnsafeRawBufferPointer, to milliseconds: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        let digits = Array(String(milliseconds).utf8)
        bytes.reserveCapacity(body.count - self.digits.count + digits.count)
        bytes.append(contentsOf: body[..<self.digits.lowerBound])
        bytes.append(contentsOf: digits)
        bytes.append(contentsOf: body[self.digits.upperBound...])
        return bytes
    }
}

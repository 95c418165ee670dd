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
    /// structure. A name given twice is read as the service reads it, the
    /// last one standing, so the budget the gateway keeps is the one the
    /// service is handed. Nil when the body is not a JSON object or carries
    /// no integer budget.
    public static func find(in body: UnsafeRawBufferPointer) -> RequestBudget? {
        try? JSONParser.with(bytes: body) { parser throws(JSONParser.Failure) -> RequestBudget? in
            parser.skipSpace()
            guard parser.peek == UInt8(ascii: "{") else { return nil }
            var found: RequestBudget?
            // Each later `params`, `_meta` or `timeoutMs` stands alone.
            try parser.eachMember(named: "params", depth: 1) { parser throws(JSONParser.Failure) in
                found = nil
                try parser.eachMember(named: RequestMeta.member, depth: 2) { parser throws(JSONParser.Failure) in
                    found = nil
                    try parser.eachMember(named: RequestMeta.CodingKeys.timeoutMs.rawValue, depth: 3) { parser throws(JSONParser.Failure) in
                        parser.skipSpace()
                        let start = parser.index
                        found = nil
                        guard case .integer(let value) = try parser.value(depth: 3), let milliseconds = Int(exactly: value) else { return }
                        found = RequestBudget(milliseconds: milliseconds, digits: start..<parser.index)
                    }
                }
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

/// Where a request's W3C trace context is in its bytes, or where it would
/// go: what the gateway needs to record its own span under the caller's
/// and to hand the worker its span as the parent, without decoding the
/// request. A `traceparent` is always 55 bytes, so it is replaced in place;
/// a request without one gets one inserted.
public struct TraceContextSlot: Sendable, Equatable {
    /// `params._meta.traceparent`'s text and where it is (inside the quotes).
    public var traceparent: (text: String, bytes: Range<Int>)?
    public var tracestate: String?
    /// Where a member can be inserted and what must follow it: after the
    /// `{` of `_meta`, of `params`, or of the request itself.
    public var insertion: (offset: Int, kind: Insertion)?

    public enum Insertion: Sendable, Equatable {
        /// Into `_meta`: `"traceparent":"…"` (and a comma unless it is empty).
        case intoMeta(empty: Bool)
        /// Into `params`: `"_meta":{"traceparent":"…"}` (and a comma unless it is empty).
        case intoParams(empty: Bool)
        /// Into the request, which has no params: `"params":{"_meta":{…}},`.
        case intoRequest
    }

    public static func == (left: Self, right: Self) -> Bool {
        left.traceparent?.text == right.traceparent?.text && left.traceparent?.bytes == right.traceparent?.bytes
            && left.tracestate == right.tracestate && left.insertion?.offset == right.insertion?.offset
            && left.insertion?.kind == right.insertion?.kind
    }

    /// Reads a request body: nil when it is not a JSON object, or its
    /// params are not an object (positional params carry no `_meta`). A
    /// name given twice is read as the service reads it, the last one
    /// standing: a later `params` or `_meta` is read afresh.
    public static func find(in body: UnsafeRawBufferPointer) -> TraceContextSlot? {
        try? JSONParser.with(bytes: body) { parser throws(JSONParser.Failure) -> TraceContextSlot? in
            parser.skipSpace()
            guard parser.peek == UInt8(ascii: "{") else { return nil }
            let fresh = TraceContextSlot(traceparent: nil, tracestate: nil, insertion: (parser.index + 1, .intoRequest))
            var slot = fresh
            var positional = false
            try parser.eachMember(named: "params", depth: 1) { parser throws(JSONParser.Failure) in
                (slot, positional) = (fresh, false)
                parser.skipSpace()
                guard parser.peek == UInt8(ascii: "{") else {
                    positional = parser.peek == UInt8(ascii: "[")
                    return try parser.skipValue(depth: 1)
                }
                try slot.readParams(&parser)
            }
            return positional ? nil : slot
        }
    }

    private mutating func readParams(_ parser: inout JSONParser) throws(JSONParser.Failure) {
        let open = parser.index + 1
        var empty = true
        var meta: (offset: Int, empty: Bool)?
        try parser.members(depth: 2) { parser, key throws(JSONParser.Failure) in
            empty = false
            parser.skipSpace()
            guard key == RequestMeta.member, parser.peek == UInt8(ascii: "{") else { try parser.skipValue(depth: 2); return true }
            var metaEmpty = true
            let metaOpen = parser.index + 1
            (traceparent, tracestate) = (nil, nil)
            try parser.members(depth: 3) { parser, key throws(JSONParser.Failure) in
                metaEmpty = false
                parser.skipSpace()
                switch RequestMeta.CodingKeys(rawValue: key) {
                case .traceparent where parser.peek == UInt8(ascii: "\""):
                    let start = parser.index + 1
                    if case .string(let text) = try parser.value(depth: 3) { traceparent = (text, start..<(parser.index - 1)) }
                case .tracestate:
                    if case .string(let text) = try parser.value(depth: 3) { tracestate = text }
                default:
                    try parser.skipValue(depth: 3)
                }
                return true
            }
            meta = (metaOpen, metaEmpty)
            return true
        }
        insertion = if let meta { (meta.offset, .intoMeta(empty: meta.empty)) } else { (open, .intoParams(empty: empty)) }
    }

    /// `body` carrying `traceparent`: replaced where it is (its length
    /// never changes), else inserted where `insertion` says.
    public func writing(traceparent new: String, into body: UnsafeRawBufferPointer) -> [UInt8]? {
        if let old = traceparent {
            guard old.bytes.count == new.utf8.count else { return nil }
            var bytes = Array(body)
            bytes.replaceSubrange(old.bytes, with: Array(new.utf8))
            return bytes
        }
        guard let (offset, kind) = insertion else { return nil }
        let member = #""\#(RequestMeta.CodingKeys.traceparent.rawValue)":"\#(new)""#
        let text =
            switch kind {
            case .intoMeta(let empty): member + (empty ? "" : ",")
            case .intoParams(let empty): #""_meta":{\#(member)}"# + (empty ? "" : ",")
            case .intoRequest: #""params":{"_meta":{\#(member)}},"#
            }
        var bytes = Array(body[..<offset])
        bytes.append(contentsOf: text.utf8)
        bytes.append(contentsOf: body[offset...])
        return bytes
    }
}

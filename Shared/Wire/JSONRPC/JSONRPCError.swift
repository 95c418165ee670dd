import Domain

/// The error object of a JSON-RPC 2.0 failure: code, a message for a
/// person that names the value that was wrong, and `data` with the values a
/// program acts on (docs/PROTOCOL.md, "Error data"). Errors of this
/// product's own are built from a `PostsError` (PostsError+JSONRPC.swift).
public struct JSONRPCError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    public var code: JSONRPCErrorCode
    public var message: String
    public var data: JSONValue?

    public init(_ code: JSONRPCErrorCode, _ message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public var description: String { "\(message) [\(code)]" }

    public static func parseError(_ detail: String) -> Self {
        Self(.parseError, "the request is not valid JSON: \(detail)")
    }

    public static func invalidRequest(_ detail: String) -> Self {
        Self(.invalidRequest, "not a JSON-RPC 2.0 request: \(detail)")
    }

    public static func methodNotFound(_ method: String, service: String) -> Self {
        Self(.methodNotFound, "service '\(service)' has no method '\(method)'", data: ["method": .string(method)])
    }

    /// A request whose `_meta.timeoutMs` was spent before it was served:
    /// its caller has stopped waiting, so it is not worked on.
    package static func budgetSpent(method: String) -> Self {
        Self(
            .timeout, "'\(method)' was not served: its time budget (params._meta.timeoutMs) ran out before it reached the service",
            data: ["seconds": 0])
    }

    /// A field that breaks a rule said in words (`rule` follows the field's
    /// name: "must be ..."): reason `malformed`, so a client rebuilds it as
    /// `.invalid(field, .malformed(rule))`. Prefer `JSONRPCError(PostsError)`
    /// with a specific reason.
    public static func invalidParams(field: String, _ rule: String) -> Self {
        Self(PostsError.invalid(WireField.inDomain(field), .malformed(rule)))
    }

    /// The error object of a reply, read from its JSON; nil without an integer code.
    init?(reading value: JSONValue) {
        guard let number = value["code"]?.intValue else { return nil }
        let code = JSONRPCErrorCode(rawValue: number)
        self.init(code, value["message"]?.stringValue ?? code.name, data: value["data"].flatMap { $0 == .null ? nil : $0 })
    }
}

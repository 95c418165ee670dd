/// The error object of a JSON-RPC 2.0 failure: code, a message for a
/// person that names the value that was wrong, and optional data such as
/// `{"field":"params.title"}`.
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
        Self(.parseError, "request is not valid JSON: \(detail)")
    }

    public static func invalidRequest(_ detail: String) -> Self {
        Self(.invalidRequest, "not a JSON-RPC 2.0 request: \(detail)")
    }

    public static func methodNotFound(_ method: String, service: String) -> Self {
        Self(.methodNotFound, "service '\(service)' has no method '\(method)'", data: ["method": .string(method)])
    }

    public static func invalidParams(field: String, _ rule: String) -> Self {
        Self(.invalidParams, "\(field) \(rule)", data: ["field": .string(field)])
    }
}

import Domain
import Foundation

extension JSONRPCError {
    /// The JSON-RPC error a service answers for a use-case failure.
    public init(_ error: PostsError) {
        switch error {
        case .invalid(let field, let rule):
            let name = field.hasPrefix("params.") ? field : "params.\(field)"
            self.init(.invalidParams, "\(name) \(rule)", data: ["field": .string(name)])
        case .notFound(let uid):
            self.init(.notFound, error.description, data: ["uid": .string(uid.uuidString)])
        case .conflict(let uid):
            self.init(.conflict, error.description, data: ["uid": .string(uid.uuidString)])
        case .unavailable(let message): self.init(.serviceUnavailable, message)
        case .busy(let message): self.init(.busy, message)
        case .timeout(let message): self.init(.timeout, message)
        case .failed(let message): self.init(.internalError, message)
        }
    }
}

extension PostsError {
    /// The use-case failure a JSON-RPC error from a service stands for.
    public init(_ error: JSONRPCError) {
        switch error.code {
        case .invalidParams:
            let field = error.data?["field"]?.stringValue ?? "params"
            let name = field.hasPrefix("params.") ? String(field.dropFirst("params.".count)) : field
            let rule = error.message.hasPrefix(field + " ") ? String(error.message.dropFirst(field.count + 1)) : error.message
            self = .invalid(field: name, rule: rule)
        case .notFound:
            if let text = error.data?["uid"]?.stringValue, let uid = UUID(uuidString: text) {
                self = .notFound(uid: uid)
            } else {
                self = .failed(error.message)
            }
        case .conflict:
            if let text = error.data?["uid"]?.stringValue, let uid = UUID(uuidString: text) {
                self = .conflict(uid: uid)
            } else {
                self = .failed(error.message)
            }
        case .serviceUnavailable: self = .unavailable(error.message)
        case .busy: self = .busy(error.message)
        case .timeout: self = .timeout(error.message)
        default: self = .failed("\(error.message) [\(error.code)]")
        }
    }
}

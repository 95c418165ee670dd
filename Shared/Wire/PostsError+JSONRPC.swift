import Domain
import Foundation

/// Every `PostsError` as a JSON-RPC error and back. The message is for
/// people; `data` holds the case's values as documented fields
/// (docs/PROTOCOL.md, "Error data"), and a client rebuilds the exact case
/// from `data` alone, never from the message.
extension JSONRPCError {
    public init(_ error: PostsError) {
        switch error {
        case .invalid(let invalid):
            let field = WireField.onWire(invalid.field)
            self.init(.invalidParams, "\(field) \(invalid.rule)", data: .object(["field": .string(field)].merging(InvalidReasonData.encode(invalid.reason)) { $1 }))
        case .notFound(let uid):
            self.init(.notFound, error.description, data: ["uid": .string(uid.uuidString)])
        case .conflict(let uid):
            self.init(.conflict, error.description, data: ["uid": .string(uid.uuidString)])
        case .unavailable(let outage):
            self.init(.serviceUnavailable, error.description, data: OutageData.encode(outage))
        case .busy(let busy):
            self.init(.busy, error.description, data: BusyData.encode(busy))
        case .timeout(let seconds):
            self.init(.timeout, error.description, data: ["seconds": .number(seconds)])
        case .tooLarge(let bytes, let limit):
            self.init(.tooLarge, error.description, data: ["bytes": .number(Double(bytes)), "limit": .number(Double(limit))])
        case .failed(let message):
            self.init(.internalError, message)
        }
    }
}

extension PostsError {
    /// The case a JSON-RPC error stands for. Without the documented `data`
    /// (a third party's worker, say) the message is kept as `.failed`.
    public init(_ error: JSONRPCError) {
        let data = error.data ?? .null
        let rebuilt: PostsError? = switch error.code {
        case .invalidParams:
            data["field"]?.stringValue.flatMap { field in
                InvalidReasonData.decode(data).map { .invalid(WireField.inDomain(field), $0) }
            }
        case .notFound: data["uid"]?.stringValue.flatMap(UUID.init(uuidString:)).map { .notFound(uid: $0) }
        case .conflict: data["uid"]?.stringValue.flatMap(UUID.init(uuidString:)).map { .conflict(uid: $0) }
        case .serviceUnavailable: OutageData.decode(data).map { .unavailable($0) }
        case .busy: BusyData.decode(data).map { .busy($0) }
        case .timeout: data["seconds"]?.doubleValue.map { .timeout(seconds: $0) }
        case .tooLarge: data["bytes"]?.intValue.flatMap { bytes in data["limit"]?.intValue.map { .tooLarge(bytes: bytes, limit: $0) } }
        case .internalError: .failed(error.message)
        default: nil
        }
        self = rebuilt ?? .failed("\(error.message) [\(error.code)]")
    }
}

/// Field names: Domain says `title`, `posts[3].uid`; the wire says where
/// in the request it is, `params.title`, `params.posts[3].uid`.
enum WireField {
    static func onWire(_ field: String) -> String { field.hasPrefix("params") ? field : "params.\(field)" }
    static func inDomain(_ field: String) -> String {
        field.hasPrefix("params.") ? String(field.dropFirst("params.".count)) : field
    }
}

enum OutageData {
    static func encode(_ outage: Outage) -> JSONValue {
        switch outage {
        case .noAnswer(let endpoint, let seconds): ["reason": "noAnswer", "endpoint": .string(endpoint), "seconds": .number(seconds)]
        case .noWorker(let service): ["reason": "noWorker", "service": .string(service)]
        case .shuttingDown: ["reason": "shuttingDown"]
        case .store(let detail): ["reason": "store", "detail": .string(detail)]
        case .permissionDenied(let endpoint): ["reason": "permissionDenied", "endpoint": .string(endpoint)]
        }
    }

    static func decode(_ data: JSONValue) -> Outage? {
        switch data["reason"]?.stringValue {
        case "noAnswer": data["endpoint"]?.stringValue.flatMap { endpoint in data["seconds"]?.doubleValue.map { .noAnswer(endpoint: endpoint, seconds: $0) } }
        case "noWorker": data["service"]?.stringValue.map { .noWorker(service: $0) }
        case "shuttingDown": .shuttingDown
        case "store": data["detail"]?.stringValue.map { .store($0) }
        case "permissionDenied": data["endpoint"]?.stringValue.map { .permissionDenied(endpoint: $0) }
        default: nil
        }
    }
}

enum BusyData {
    static func encode(_ busy: Busy) -> JSONValue {
        switch busy {
        case .clientLimit(let limit): ["reason": "clientLimit", "limit": .number(Double(limit))]
        case .queueFull(let service, let limit): ["reason": "queueFull", "service": .string(service), "limit": .number(Double(limit))]
        case .store: ["reason": "store"]
        }
    }

    static func decode(_ data: JSONValue) -> Busy? {
        switch data["reason"]?.stringValue {
        case "clientLimit": data["limit"]?.intValue.map { .clientLimit($0) }
        case "queueFull": data["service"]?.stringValue.flatMap { service in data["limit"]?.intValue.map { .queueFull(service: service, limit: $0) } }
        case "store": .store
        default: nil
        }
    }
}

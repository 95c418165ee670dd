import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every `PostsError` as a JSON-RPC error and back. The message is for
/// people; `data` holds the case's values as documented fields
/// (docs/PROTOCOL.md, "Error data"), and a client rebuilds the exact case
/// from `data` alone, never from the message.
extension JSONRPCError {
    /// The error a service or the gateway answers with for `error`. The
    /// gateway's refusals are all cases of it: no worker in time
    /// (`.unavailable(.noWorker)`), shutting down (`.unavailable(.shuttingDown)`),
    /// a full queue or client (`.busy(.queueFull)`, `.busy(.clientLimit)`).
    public init(_ error: PostsError) {
        switch error {
        case .invalid(let invalid):
            let field = WireField.onWire(invalid.field)
            var data = InvalidReasonData.encode(invalid.reason)
            data["field"] = .string(field)
            self.init(.invalidParams, InvalidField(field, invalid.reason).description, data: .object(data))
        case .notFound(let uid):
            self.init(.notFound, error.description, data: ["uid": .string(uid.text)])
        case .conflict(let uid):
            self.init(.conflict, error.description, data: ["uid": .string(uid.text)])
        case .unavailable(let outage):
            self.init(.serviceUnavailable, error.description, data: OutageData.encode(outage))
        case .busy(let busy):
            self.init(.busy, error.description, data: BusyData.encode(busy))
        case .timeout(let seconds):
            self.init(.timeout, error.description, data: ["seconds": .number(seconds)])
        case .tooLarge(let bytes, let limit):
            self.init(.tooLarge, error.description, data: ["bytes": .integer(Int64(bytes)), "limit": .integer(Int64(limit))])
        case .failed(let message):
            self.init(.internalError, message)
        }
    }

    /// As `init(_:)`, in the sender's own words (the gateway says what it
    /// saw: "no worker took the request within 5000 ms"); `data` is the same.
    public init(_ error: PostsError, message: String) {
        self.init(error)
        self.message = message
    }
}

extension PostsError {
    /// The case a JSON-RPC error stands for, rebuilt from its `data`.
    /// Without the documented `data` (a third party's worker, say) it is
    /// `.failed` with the message, and the code for any code but -32603.
    public init(_ error: JSONRPCError) {
        let data = error.data ?? .null
        let rebuilt: PostsError? =
            switch error.code {
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

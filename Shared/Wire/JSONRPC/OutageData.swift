import Domain

/// -32003's `data`: `reason` names the outage, the others carry its values.
enum OutageData {
    static func encode(_ outage: Outage) -> JSONValue {
        switch outage {
        case .noAnswer(let endpoint, let seconds): ["reason": "noAnswer", "endpoint": .string(endpoint), "seconds": .number(seconds)]
        case .noWorker(let service): ["reason": "noWorker", "service": .string(service)]
        case .shuttingDown: ["reason": "shuttingDown"]
        case .interrupted(let service): ["reason": "interrupted", "service": .string(service)]
        case .store(let detail): ["reason": "store", "detail": .string(detail)]
        case .permissionDenied(let endpoint): ["reason": "permissionDenied", "endpoint": .string(endpoint)]
        case .notAdmitted(let endpoint, let detail): ["reason": "notAdmitted", "endpoint": .string(endpoint), "detail": .string(detail)]
        }
    }

    static func decode(_ data: JSONValue) -> Outage? {
        switch data["reason"]?.stringValue {
        case "noAnswer":
            data["endpoint"]?.stringValue.flatMap { endpoint in data["seconds"]?.doubleValue.map { .noAnswer(endpoint: endpoint, seconds: $0) } }
        case "noWorker": data["service"]?.stringValue.map { .noWorker(service: $0) }
        case "shuttingDown": .shuttingDown
        case "interrupted": data["service"]?.stringValue.map { .interrupted(service: $0) }
        case "store": data["detail"]?.stringValue.map { .store($0) }
        case "permissionDenied": data["endpoint"]?.stringValue.map { .permissionDenied(endpoint: $0) }
        case "notAdmitted":
            data["endpoint"]?.stringValue.flatMap { endpoint in data["detail"]?.stringValue.map { .notAdmitted(endpoint: endpoint, detail: $0) } }
        default: nil
        }
    }
}

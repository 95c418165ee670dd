import Domain

/// -32006's `data`: `reason` names what is full, the others carry its values.
enum BusyData {
    static func encode(_ busy: Busy) -> JSONValue {
        switch busy {
        case .clientLimit(let limit): ["reason": "clientLimit", "limit": .integer(Int64(limit))]
        case .queueFull(let service, let limit): ["reason": "queueFull", "service": .string(service), "limit": .integer(Int64(limit))]
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

/// The event a service publishes after every committed write: its name and
/// the newest change sequence. Topic `<service>.changed`; body
/// `{"service":"posts","head":42}`.
public struct ChangeNotice: Sendable, Equatable, Codable {
    public var service: String
    public var head: Int64

    public init(service: String, head: Int64) {
        self.service = service
        self.head = head
    }

    public var topic: String { "\(service).changed" }
}

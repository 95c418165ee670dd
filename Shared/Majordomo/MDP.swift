import ZeroMQ

/// Constants of ZeroMQ RFC 7/MDP v0.1, named as the specification names them.
public enum MDP {
    /// Protocol header of client messages (7/MDP "MDPC01").
    public static let clientHeader: Frame = "MDPC01"
    /// Protocol header of worker messages (7/MDP "MDPW01").
    public static let workerHeader: Frame = "MDPW01"
    /// Both headers: a connection that receives them hands them on shared
    /// (`ZMTP.Limits.sharedFrames`) rather than copying each.
    public static let headers = SharedFrames([clientHeader, workerHeader])
    /// The empty delimiter frame.
    public static let empty = Frame()

    /// Worker command bytes.
    public enum Command: UInt8, Sendable, CustomStringConvertible {
        case ready = 0x01, request = 0x02, reply = 0x03, heartbeat = 0x04, disconnect = 0x05

        public var frame: Frame { Command.frames[Int(rawValue)] }
        private static let frames = (0...5).map { Frame(byte: UInt8($0)) }

        public var description: String {
            switch self {
            case .ready: "READY"
            case .request: "REQUEST"
            case .reply: "REPLY"
            case .heartbeat: "HEARTBEAT"
            case .disconnect: "DISCONNECT"
            }
        }
    }

    /// Prefix reserved for broker-internal services (8/MMI).
    public static let mmiPrefix = "mmi."

    /// Longest service name, in characters.
    public static let serviceNameLimit = 128

    /// Service names are 1 to 128 of A-Z a-z 0-9 . - _ (docs/PROTOCOL.md):
    /// they are shown in logs, `mmi.status` and terminals, so nothing a
    /// terminal would act on may be one.
    public static func isValidServiceName<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        (1...serviceNameLimit).contains(bytes.count)
            && bytes.allSatisfy { byte in
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            }
    }

    public static func isValidServiceName(_ frame: Frame) -> Bool {
        frame.withUnsafeBytes { isValidServiceName($0) }
    }

    public static func isValidServiceName(_ name: String) -> Bool {
        isValidServiceName(name.utf8)
    }
    /// 8/MMI: asks whether a service has workers.
    public static let mmiServiceName = "mmi.service"

    // MARK: - Messages, as the sender writes them (a DEALER sends the empty delimiter itself)

    /// Client → broker: "", MDPC01, service, body…
    public static func clientRequest(service: Frame, body: [Frame]) -> [Frame] {
        [empty, clientHeader, service] + body
    }

    /// Worker → broker: "", MDPW01, READY, service; and, from a worker
    /// serving several brokers, a frame more naming them all (comma-separated,
    /// as the worker reaches them): brokers that do not know it ignore it.
    public static func ready(service: Frame, brokers: [String] = []) -> [Frame] {
        let ready = [empty, workerHeader, Command.ready.frame, service]
        return brokers.count > 1 ? ready + [Frame(brokers.joined(separator: ","))] : ready
    }

    /// The most of a READY's broker list kept: 16 endpoints of 256 bytes.
    public static let brokerListLimit = (count: 16, bytes: 256)

    /// Worker → broker: "", MDPW01, REPLY, client, "", body…
    public static func reply(client: Frame, body: [Frame]) -> [Frame] {
        [empty, workerHeader, Command.reply.frame, client, empty] + body
    }

    /// Either direction: "", MDPW01, HEARTBEAT
    public static let heartbeat: [Frame] = [empty, workerHeader, Command.heartbeat.frame]
    /// Either direction: "", MDPW01, DISCONNECT
    public static let disconnect: [Frame] = [empty, workerHeader, Command.disconnect.frame]
}

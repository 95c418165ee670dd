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
    /// A session that takes more than one request at once says how many
    /// (`credit`, decimal) in a frame after that one, which is then sent
    /// even when empty (docs/PROTOCOL.md, "Credit").
    public static func ready(service: Frame, brokers: [String] = [], credit: Int = 1) -> [Frame] {
        let ready = [empty, workerHeader, Command.ready.frame, service]
        let list = brokers.count > 1 ? brokers.joined(separator: ",") : nil
        if credit > 1 { return ready + [Frame(list ?? ""), Frame(String(credit))] }
        return list.map { ready + [Frame($0)] } ?? ready
    }

    /// The most requests one session may announce it takes at once.
    public static let creditLimit = 1000

    /// A client address with a request's tag after it (4 bytes, big-endian):
    /// what a REQUEST to a session with credit carries, so that its REPLY,
    /// which hands the address back unchanged, names the request it
    /// answers among several of one client's.
    static func tagged(_ client: Frame, _ tag: UInt32) -> Frame {
        client.withUnsafeBytes { bytes in
            var tagged = [UInt8](bytes)
            withUnsafeBytes(of: tag.bigEndian) { tagged.append(contentsOf: $0) }
            return Frame(tagged)
        }
    }

    /// The tag of an address made by `tagged`, and whether the rest is
    /// `client`; nil for one too short to hold a tag.
    static func tag(of address: Frame, client: Frame) -> UInt32? {
        guard address.count == client.count + 4 else { return nil }
        return address.withUnsafeBytes { bytes in
            client.withUnsafeBytes { client in
                guard bytes.prefix(client.count).elementsEqual(client) else { return nil }
                return bytes.suffix(4).reduce(0) { $0 << 8 | UInt32($1) }
            }
        }
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

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What is running and how it is doing: the one status model, from the
/// gateway's answer to the screen and `posts status --json`.
public struct SystemStatus: Sendable, Equatable, Codable {
    /// A service and the requests made of it.
    public struct Service: Sendable, Equatable, Codable {
        public var name: String
        /// Processes serving it, and their sessions (requests served at once) in all.
        public var processes: Int
        public var sessions: Int
        /// Requests waiting for a free session.
        public var queued: Int
        public var requests: Int
        /// Requests refused (no worker in time, queue full, shutting down).
        public var refused: Int
        public var p50Milliseconds: Double?
        public var p99Milliseconds: Double?

        public init(
            name: String, processes: Int, sessions: Int, queued: Int, requests: Int, refused: Int,
            p50Milliseconds: Double? = nil, p99Milliseconds: Double? = nil
        ) {
            (self.name, self.processes, self.sessions, self.queued) = (name, processes, sessions, queued)
            (self.requests, self.refused, self.p50Milliseconds, self.p99Milliseconds) = (requests, refused, p50Milliseconds, p99Milliseconds)
        }
    }

    /// One process serving a service.
    public struct Process: Sendable, Equatable, Codable {
        public var service: String
        /// Its process id, when it says (workers of this product do).
        public var pid: Int32?
        /// A name for it when it has no pid: how the gateway knows it.
        public var name: String
        public var sessions: Int
        /// Sessions handling a request now.
        public var busy: Int
        public var handled: Int
        /// Since the gateway last heard from it.
        public var silentMilliseconds: Double
        /// Every gateway it serves, as it names them, when it serves
        /// several; nil when it serves only the gateway that says.
        public var gateways: [String]?

        public init(
            service: String, pid: Int32?, name: String, sessions: Int, busy: Int, handled: Int, silentMilliseconds: Double,
            gateways: [String]? = nil
        ) {
            (self.service, self.pid, self.name, self.sessions) = (service, pid, name, sessions)
            (self.busy, self.handled, self.silentMilliseconds, self.gateways) = (busy, handled, silentMilliseconds, gateways)
        }
    }

    /// One search process's index and how far behind the posts it is.
    public struct SearchIndex: Sendable, Equatable, Codable {
        public var pid: Int32
        public var documents: Int
        /// The last change sequence it applied, and the newest it has heard of.
        public var applied: Int64
        public var head: Int64
        /// Changes it has still to apply.
        public var lag: Int64 { max(0, head - applied) }

        public init(pid: Int32, documents: Int, applied: Int64, head: Int64) {
            (self.pid, self.documents, self.applied, self.head) = (pid, documents, applied, head)
        }

        enum CodingKeys: String, CodingKey { case pid, documents, applied, head, lag }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                pid: try container.decode(Int32.self, forKey: .pid), documents: try container.decode(Int.self, forKey: .documents),
                applied: try container.decode(Int64.self, forKey: .applied), head: try container.decode(Int64.self, forKey: .head))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(pid, forKey: .pid)
            try container.encode(documents, forKey: .documents)
            try container.encode(applied, forKey: .applied)
            try container.encode(head, forKey: .head)
            try container.encode(lag, forKey: .lag)
        }
    }

    /// Where the answer came from: a gateway endpoint or a database file.
    public var source: String
    public var uptimeSeconds: Double?
    public var services: [Service]
    public var processes: [Process]
    /// How many posts there are, when the source counts them.
    public var posts: Int?
    public var searchIndexes: [SearchIndex]
    /// Each method of each service, as its processes count it.
    public var methods: [MethodTraffic]
    /// Every gateway the client was given, each with its state; empty when
    /// the source is not a gateway.
    public var gateways: [GatewayState]

    public init(
        source: String, uptimeSeconds: Double? = nil, services: [Service] = [], processes: [Process] = [],
        posts: Int? = nil, searchIndexes: [SearchIndex] = [], methods: [MethodTraffic] = [], gateways: [GatewayState] = []
    ) {
        (self.source, self.uptimeSeconds, self.services, self.processes) = (source, uptimeSeconds, services, processes)
        (self.posts, self.searchIndexes, self.methods, self.gateways) = (posts, searchIndexes, methods, gateways)
    }
}

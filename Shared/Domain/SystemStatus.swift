import Foundation

/// What `posts status` shows: the services and their workers, or the
/// local store when there are no services.
public struct SystemStatus: Sendable, Equatable {
    public struct Service: Sendable, Equatable {
        public var name: String
        public var workers: Int
        public var queued: Int
        public var requests: Int
        public var errors: Int
        public var p50Milliseconds: Double?
        public var p99Milliseconds: Double?

        public init(name: String, workers: Int, queued: Int, requests: Int, errors: Int, p50Milliseconds: Double?, p99Milliseconds: Double?) {
            (self.name, self.workers, self.queued) = (name, workers, queued)
            (self.requests, self.errors, self.p50Milliseconds, self.p99Milliseconds) = (requests, errors, p50Milliseconds, p99Milliseconds)
        }
    }

    public struct Worker: Sendable, Equatable {
        public var service: String
        public var identity: String
        public var busy: Bool
        public var handled: Int
        public var lastHeardMilliseconds: Double

        public init(service: String, identity: String, busy: Bool, handled: Int, lastHeardMilliseconds: Double) {
            (self.service, self.identity, self.busy) = (service, identity, busy)
            (self.handled, self.lastHeardMilliseconds) = (handled, lastHeardMilliseconds)
        }
    }

    /// One search worker process and how far its index has got.
    public struct SearchIndex: Sendable, Equatable {
        public var worker: Int32
        public var documents: Int
        public var applied: Int64
        public var lag: Int64

        public init(worker: Int32, documents: Int, applied: Int64, lag: Int64) {
            (self.worker, self.documents, self.applied, self.lag) = (worker, documents, applied, lag)
        }
    }

    /// Where the answer came from: a gateway endpoint or a database file.
    public var source: String
    public var uptimeSeconds: Double?
    public var services: [Service]
    public var workers: [Worker]
    public var posts: Int?
    public var searchIndexes: [SearchIndex]

    public init(source: String, uptimeSeconds: Double?, services: [Service], workers: [Worker], posts: Int?, searchIndexes: [SearchIndex] = []) {
        (self.source, self.uptimeSeconds, self.services, self.workers, self.posts) = (source, uptimeSeconds, services, workers, posts)
        self.searchIndexes = searchIndexes
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The event a service publishes after every committed write: its name and
/// the newest change sequence. Topic `<service>.changed`; body
/// `{"service":"posts","head":42}`, and the W3C trace context of the write
/// when it was traced (`traceparent`, `tracestate`), so each replica's
/// apply of it joins the write's trace.
public struct ChangeNotice: Sendable, Equatable, Codable {
    public var service: String
    public var head: Int64
    public var traceparent: String?
    public var tracestate: String?

    public init(service: String, head: Int64, traceparent: String? = nil, tracestate: String? = nil) {
        (self.service, self.head, self.traceparent, self.tracestate) = (service, head, traceparent, tracestate)
    }

    public var topic: String { Self.topic(of: service) }

    /// The topic a service's notices go out on: the one place it is spelled.
    public static func topic(of service: String) -> String { "\(service).changed" }

    /// The notice as it is published: one JSON object.
    public var body: [UInt8] { (try? JSONWriter.encode(self)).map { Array($0) } ?? [] }

    /// A notice read from a published body; nil for one that is not a
    /// notice (a subscriber skips it: a lost notice costs a reader one
    /// timer period, never data).
    public init?(body: [UInt8]) {
        guard let notice = body.withUnsafeBytes({ try? JSONBytes.decode(ChangeNotice.self, from: $0, root: "notice") }) else { return nil }
        self = notice
    }
}

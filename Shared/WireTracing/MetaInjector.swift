import Tracing
import Wire

/// W3C trace context in and out of `params._meta`, for whatever
/// instrument is bootstrapped (swift-otel's propagator writes the
/// `traceparent` and `tracestate` keys).
struct MetaInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout RequestMeta) {
        switch RequestMeta.CodingKeys(rawValue: key.lowercased()) {
        case .traceparent: carrier.traceparent = value
        case .tracestate: carrier.tracestate = value
        default: break
        }
    }
}

import Tracing

/// W3C trace context in and out of `params._meta`, for whatever
/// instrument is bootstrapped (swift-otel's propagator writes the
/// `traceparent` and `tracestate` keys).
struct MetaInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout RequestMeta) {
        switch key.lowercased() {
        case "traceparent": carrier.traceparent = value
        case "tracestate": carrier.tracestate = value
        default: break
        }
    }
}

struct MetaExtractor: Extractor {
    func extract(key: String, from carrier: RequestMeta) -> String? {
        switch key.lowercased() {
        case "traceparent": carrier.traceparent
        case "tracestate": carrier.tracestate
        default: nil
        }
    }
}

extension RequestMeta {
    /// This meta with the trace context of `context` (the current span's).
    public mutating func carry(_ context: ServiceContext) {
        InstrumentationSystem.instrument.inject(context, into: &self, using: MetaInjector())
    }

    /// The trace context this meta carries, as a context to start a span in.
    public var context: ServiceContext {
        var context = ServiceContext.topLevel
        InstrumentationSystem.instrument.extract(self, into: &context, using: MetaExtractor())
        return context
    }
}

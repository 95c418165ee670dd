import Tracing
import Wire

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

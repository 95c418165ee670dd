import Logging
import OTel
import ServiceLifecycle
import Tracing

/// Traces: written with swift-distributed-tracing everywhere, exported by
/// swift-otel as OTLP over HTTP (protobuf) when the standard
/// `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`)
/// is set; otherwise the tracer is swift-distributed-tracing's no-op and
/// nothing leaves the process. The other OTEL_* variables (service name,
/// sampler, batch delay) apply as the specification says.
public enum TracingStart {
    /// Whether export is asked for.
    public static func isRequested(_ environment: [String: String]) -> Bool {
        ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"].contains { !(environment[$0] ?? "").isEmpty }
    }

    /// Bootstraps the tracer when export is asked for; the service it
    /// returns exports the spans, and must run (and end gracefully, to
    /// send the last of them) beside the process's own.
    public static func start(serviceName: String, environment: [String: String]) throws -> (any Service)? {
        guard isRequested(environment) else { return nil }
        var configuration = OTel.Configuration.default
        configuration.serviceName = serviceName
        configuration.metrics.enabled = false
        configuration.logs.enabled = false
        configuration.traces.enabled = true
        configuration.traces.exporter = .otlp
        configuration.traces.otlpExporter.protocol = .httpProtobuf
        // swift-otel's own notes go through this process's log, at warning
        // and above: one line format on stderr, never two interleaved.
        configuration.diagnosticLogger = .custom(Logger(label: "swift-otel"))
        configuration.diagnosticLogLevel = .warning
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        InstrumentationSystem.bootstrap(backend.factory)
        return backend.service
    }

    /// A context whose trace is not sampled: calls made in it (a search
    /// replica's background pulls) start no trace here, at the gateway or
    /// at the service, where a sampled caller's would.
    public static func unsampled() -> ServiceContext {
        func hex(_ bytes: Int) -> String {
            (0..<bytes).map { _ in String(UInt8.random(in: 0...255), radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        }
        var context = ServiceContext.topLevel
        InstrumentationSystem.instrument.extract(
            ["traceparent": "00-\(hex(16))-\(hex(8))-00"], into: &context,
            using: DictionaryExtractor())
        return context
    }

    /// Log metadata of the current span: `trace_id` and `span_id` on every
    /// log line written inside one.
    public static var loggingMetadata: Logger.MetadataProvider { OTel.makeLoggingMetadataProvider() }
}

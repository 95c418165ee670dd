import Logging
import ServiceLifecycle

/// The span exporter of a short-lived program (the `posts` CLI), which has
/// no service group of its own: it runs in the background, and `finish`
/// sends what is left before the program exits.
public final class SpanExport: Sendable {
    private let group: ServiceGroup
    private let running: Task<Void, Never>

    private init(group: ServiceGroup) {
        self.group = group
        running = Task { try? await group.run() }
    }

    /// Starts exporting when `TracingStart` says export is asked for.
    public static func start(serviceName: String, environment: [String: String]) throws -> SpanExport? {
        guard let exporter = try TracingStart.start(serviceName: serviceName, environment: environment) else { return nil }
        let group = ServiceGroup(configuration: .init(services: [.init(service: exporter)], logger: Logger(label: "traces")))
        return SpanExport(group: group)
    }

    /// Sends the spans not yet sent, and stops.
    public func finish() async {
        await group.triggerGracefulShutdown()
        await running.value
    }
}

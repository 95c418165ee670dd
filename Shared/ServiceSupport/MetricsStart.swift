import ArgumentParser
import Logging
import Metrics
import Observability

/// Turns metrics on for this process when an address is set: swift-metrics
/// bootstrapped with the Prometheus registry, and the endpoint bound, or a
/// message on standard error naming what failed and exit 1.
public enum MetricsStart {
    public static func start(_ address: MetricsAddress?, program: String, logger: Logger) async throws -> MetricsEndpoint? {
        guard let address else { return nil }
        let factory = CatalogMetricsFactory()
        MetricsSystem.bootstrap(factory)
        do {
            return try await MetricsEndpoint.bind(address, registry: factory.registry, logger: logger)
        } catch {
            StandardError.write("\(program): \(error)\n")
            throw ExitCode.failure
        }
    }
}

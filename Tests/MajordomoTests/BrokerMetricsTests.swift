@testable import Majordomo
import TestSupport
import TestTraits
import Testing
import ZeroMQ

/// The gateway's metric labels: a client cannot multiply the series.
@Suite("Broker metrics", .ownThread, .timeLimit(.minutes(5)))
struct BrokerMetricsTests {
    @Test func test_pastTheLimitOfNamedServices_moreServicesCountAsOther() async {
        let metrics = BrokerMetrics()
        let named = (0..<BrokerMetrics.namedServices).map { metrics.service(named: "service-\($0)") }
        #expect(named.allSatisfy { $0 !== metrics.unnamed })
        #expect(metrics.service(named: "service-0") === named[0], "a service keeps its figures")
        #expect(metrics.service(named: "one-too-many") === metrics.unnamed)
    }

    @Test func test_aServiceIsALabelOnlyOnceAWorkerRegisteredForIt() async {
        var broker = Harness()
        broker.request(from: "c", service: "made-up")
        #expect(broker.core.services["made-up"]?.metrics === broker.core.metrics.unnamed)
        broker.ready("w1", service: "echo")
        #expect(broker.core.services["echo"]?.metrics !== broker.core.metrics.unnamed)
    }
}

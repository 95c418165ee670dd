import Foundation
import Logging
import Observability
import Prometheus
import TestSupport
import TestTraits
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The metrics endpoint over a real TCP socket: what it answers, and its
/// bound on connections.
@Suite("Metrics endpoint", .serialized, .ownThread, .timeLimit(.minutes(5)))
struct MetricsEndpointTests {
    /// A TCP connection to 127.0.0.1:`port`, or nil.
    private func connect(_ port: Int) -> Int32? {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(socket); return nil }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return socket
    }

    /// Sends `request`, and reads until the server closes the connection.
    private func exchange(_ port: Int, _ request: String) throws -> String {
        let socket = try #require(connect(port))
        defer { close(socket) }
        _ = request.utf8CString.withUnsafeBufferPointer { send(socket, $0.baseAddress, $0.count - 1, 0) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            answer += buffer[0..<count]
        }
        return String(decoding: answer, as: UTF8.self)
    }

    @Test func test_getMetricsIsAnsweredInPrometheusText_andAnythingElseIsNot() async throws {
        let registry = PrometheusCollectorRegistry()
        registry.makeCounter(descriptor: MetricNameDescriptor(metricName: "test_things_total", unitName: "", helpText: "Things.")).increment()
        let endpoint = try await MetricsEndpoint.bind(
            try MetricsAddress.parse("127.0.0.1:0").get(), registry: registry, logger: Logger(label: "test"))
        let port = endpoint.address.port
        let metrics = try exchange(port, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(
            metrics.hasPrefix("HTTP/1.1 200 OK") && metrics.contains("text/plain; version=0.0.4") && metrics.contains("test_things_total 1"),
            "\(metrics)")
        #expect(try exchange(port, "GET /other HTTP/1.1\r\nHost: x\r\n\r\n").hasPrefix("HTTP/1.1 404"))
        #expect(try exchange(port, "POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n").hasPrefix("HTTP/1.1 405"))
        await endpoint.close()
    }

    /// What the server did with `socket`: the bytes it sent before it
    /// closed, or why reading failed (a time-out of `seconds`, a reset).
    private func readToClose(_ socket: Int32, seconds: Int) -> Result<[UInt8], POSIXError> {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count == 0 { return .success(answer) }
            if count < 0 { return .failure(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)) }
            answer += buffer[0..<count]
        }
    }

    @Test func test_pastItsConnectionLimit_aNewConnectionIsClosedAtOnce_andTheOthersAreStillServed() async throws {
        // An idle time-out far past the test, so the bound on connections is
        // all that closes one: on a loaded machine the idle ones must not be
        // closed for silence before the one past the limit arrives.
        let endpoint = try await MetricsEndpoint.bind(
            try MetricsAddress.parse("127.0.0.1:0").get(), registry: PrometheusCollectorRegistry(),
            logger: Logger(label: "test"), idleTimeout: .minutes(10))
        let port = endpoint.address.port
        let idle = (0..<MetricsEndpoint.maxConnections).compactMap { _ in connect(port) }
        defer { idle.forEach { close($0) } }
        #expect(idle.count == MetricsEndpoint.maxConnections)
        let accepted = await eventually(within: .seconds(60)) { endpoint.openConnections == MetricsEndpoint.maxConnections }
        #expect(accepted, "every connection up to the limit is accepted and held (\(endpoint.openConnections) held)")
        let extra = try #require(connect(port))
        defer { close(extra) }
        let refused = readToClose(extra, seconds: 60)
        #expect(refused == .success([]), "the one past the limit is closed without an answer")
        #expect(endpoint.openConnections == MetricsEndpoint.maxConnections)
        let first = try #require(idle.first)
        _ = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n".utf8CString.withUnsafeBufferPointer { send(first, $0.baseAddress, $0.count - 1, 0) }
        let answer = try readToClose(first, seconds: 60).get()
        #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK"), "a connection within the limit is still served")
        await endpoint.close()
    }

    @Test func test_aConnectionSilentForItsIdleTimeout_isClosed() async throws {
        let endpoint = try await MetricsEndpoint.bind(
            try MetricsAddress.parse("127.0.0.1:0").get(), registry: PrometheusCollectorRegistry(),
            logger: Logger(label: "test"), idleTimeout: .milliseconds(300))
        let silent = try #require(connect(endpoint.address.port))
        defer { close(silent) }
        #expect(readToClose(silent, seconds: 60) == .success([]), "a silent connection is closed without an answer")
        #expect(await eventually(within: .seconds(60)) { endpoint.openConnections == 0 }, "and no longer counted")
        await endpoint.close()
    }
}

import Foundation
import Logging
@testable import Majordomo
import TestSupport
import TestTraits
import Testing
import ZeroMQ

/// The broker serves plaintext ipc:// with its own ZMTP router and the rest
/// with libzmq's: one routing space across both.
@Suite("Broker over ipc:// and tcp:// at once", .serialized, .ownThread, .timeLimit(.minutes(5)))
struct BrokerTransportTests {
    @Test func test_aClientOverTCP_reachesAWorkerOverIPC_andAClientOverIPC_aWorkerOverTCP() async throws {
        try await withBroker(["ipc", "tcp"]) { context, endpoints in
            let (ipc, tcp) = (endpoints[0], endpoints[1])
            let overIPC = MajordomoWorker(endpoint: ipc, service: "via-ipc", configuration: workerConfiguration(), context: context, logger: quiet)
            let overTCP = MajordomoWorker(endpoint: tcp, service: "via-tcp", configuration: workerConfiguration(), context: context, logger: quiet)
            let servingIPC = Task { try await overIPC.run(synchronous: { body in [Frame("ipc worker")] + body }) }
            let servingTCP = Task { try await overTCP.run(synchronous: { body in [Frame("tcp worker")] + body }) }
            let tcpClient = try patientClient(tcp, context: context, correlationID: { _ in nil })
            let ipcClient = try patientClient(ipc, context: context, correlationID: { _ in nil })
            // Both registered first: a worker that is not there yet is not
            // what this test is about (on a loaded machine it took seconds).
            let registered = await eventually(within: .seconds(30)) {
                (try? await tcpClient.request(service: "mmi.count", body: ["count"], correlationID: nil)) == ["2"]
            }
            #expect(registered, "both workers registered with the broker")
            for round in 0..<5 {
                #expect(
                    try await tcpClient.request(service: "via-ipc", body: [Frame("t\(round)")], correlationID: nil) == [
                        "ipc worker", Frame("t\(round)"),
                    ])
                #expect(
                    try await ipcClient.request(service: "via-tcp", body: [Frame("i\(round)")], correlationID: nil) == [
                        "tcp worker", Frame("i\(round)"),
                    ])
            }
            overIPC.stop()
            overTCP.stop()
            try await servingIPC.value
            try await servingTCP.value
        }
    }

    @Test func test_aBrokerOnTCPOnly_answersRequestAfterRequest_withPausesBetween() async throws {
        try await withBroker(["tcp"]) { context, endpoints in
            let worker = MajordomoWorker(
                endpoint: endpoints[0], service: "echo", configuration: workerConfiguration(), context: context, logger: quiet)
            let serving = Task { try await worker.run(synchronous: { $0 }) }
            let client = try MajordomoClient(endpoint: endpoints[0], context: context, logger: quiet, correlationID: { _ in nil })
            for round in 0..<5 {
                #expect(try await client.request(service: "echo", body: [Frame("r\(round)")], correlationID: nil) == [Frame("r\(round)")])
                // Long enough for the broker to block in its wait between requests.
                try await Task.sleep(for: .milliseconds(30))
            }
            worker.stop()
            try await serving.value
        }
    }
}

/// A broker on the given kinds of endpoint ("ipc", "tcp"), with the
/// endpoints it bound (tcp ports resolved) in that order.
private func withBroker(_ kinds: [String], _ body: (Context, [String]) async throws -> Void) async throws {
    try await withDirectory { directory in
        let context = try Context()
        var options = Broker.Options(endpoints: kinds.map { $0 == "ipc" ? "ipc://\(directory)/b.ipc" : "tcp://127.0.0.1:*" })
        options.configuration.heartbeatInterval = .milliseconds(100)
        options.configuration.shutdownGrace = .zero
        let broker = Broker(options: options, replies: PlainReplies(), context: context, logger: quiet)
        let endpoints = try await broker.start()
        #expect(endpoints.count == kinds.count && !endpoints.contains { $0.hasSuffix(":*") })
        let outcome: Result<Void, any Error>
        do { outcome = .success(try await body(context, endpoints)) } catch { outcome = .failure(error) }
        broker.stop()
        await broker.waitUntilStopped()
        try outcome.get()
    }
}

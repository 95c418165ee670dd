import Foundation
import Logging
@testable import Majordomo
import Synchronization
import TestSupport
import Testing
import ZeroMQ

let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

/// A fresh private directory for socket files, removed after `body`.
func withDirectory<Value>(_ body: (String) async throws -> Value) async throws -> Value {
    try await withTemporaryDirectory("mdp", body)
}

/// A broker on an ipc:// endpoint in a fresh private directory, stopped
/// (and its socket file gone) before the directory is removed. A request
/// waits for its service's first worker as long as `patientClient` waits
/// for a reply (20 s, not 5 s): beside a full run on two cores a worker
/// once registered more than 5 s after its test's request came, which was
/// then answered "unavailable".
func withBroker<Value>(
    heartbeat: Duration = .milliseconds(100),
    _ body: (Context, String) async throws -> Value
) async throws -> Value {
    try await withDirectory { directory in
        let context = try Context()
        var options = Broker.Options(endpoints: ["ipc://\(directory)/b.ipc"])
        options.configuration.heartbeatInterval = heartbeat
        options.configuration.shutdownGrace = .zero
        options.configuration.queueWait = .seconds(20)
        let broker = Broker(options: options, replies: PlainReplies(), context: context, logger: quiet)
        let endpoint = try await broker.start()[0]
        let outcome: Result<Value, any Error>
        do { outcome = .success(try await body(context, endpoint)) } catch { outcome = .failure(error) }
        broker.stop()
        await broker.waitUntilStopped()
        return try outcome.get()
    }
}

func workerConfiguration(heartbeat: Duration = .milliseconds(100)) -> MajordomoWorker.Configuration {
    var configuration = MajordomoWorker.Configuration()
    configuration.heartbeatInterval = heartbeat
    configuration.reconnectDelay = .milliseconds(50)
    return configuration
}

/// Replies echo their body, so the body's text is the correlation id.
let echoCorrelator: MajordomoClient.Correlator = { $0.first?.string }

/// A client for tests whose point is not timing: each attempt waits 20 s
/// (the default is 3 s). At the start of a full run on two cores, with a
/// hundred processes starting at once, a worker registered or a reply came
/// seconds late, and requests timed out that were answered all the same.
/// A request that is never answered still fails, after its attempts.
func patientClient(_ endpoint: String, context: Context, correlationID: @escaping MajordomoClient.Correlator) throws -> MajordomoClient {
    var configuration = MajordomoClient.Configuration()
    configuration.timeout = .seconds(20)
    return try MajordomoClient(endpoint: endpoint, configuration: configuration, context: context, logger: quiet, correlationID: correlationID)
}

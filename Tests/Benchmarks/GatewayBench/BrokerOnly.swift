import Foundation
import Logging
import Majordomo
import Synchronization
import ZeroMQ

/// `gateway-bench broker ENDPOINT`: the gateway's `Broker`, with its default
/// configuration, alone on the endpoint until SIGTERM or SIGINT; for counting
/// its instructions per request under callgrind. Refusals carry a plain
/// message instead of the gateway's JSON-RPC error: none are sent on the
/// measured path.
enum BrokerOnly {
    struct PlainReplies: BrokerReplies {
        func refusal(_ refusal: BrokerRefusal, request body: [Frame]) -> [Frame] { [Frame("\(refusal)")] }
        func introspection(service: String, request body: [Frame], snapshot: BrokerSnapshot) -> [Frame]? { nil }
    }

    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    static func serve(_ endpoint: String) {
        // SIGTERM and SIGINT blocked in every thread (threads inherit the
        // mask), and taken here with sigwait: no handler, no Dispatch.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        var logger = Logger(label: "broker")
        logger.logLevel = .error
        let broker: Broker
        do {
            broker = Broker(options: .init(endpoints: [endpoint]), replies: PlainReplies(), context: try Context(), logger: logger)
        } catch {
            fail("\(error)")
        }
        let started = DispatchSemaphore(value: 0)
        let failure = Mutex<String?>(nil)
        Task {
            do { try await broker.start() } catch { failure.withLock { $0 = "\(error)" } }
            started.signal()
        }
        started.wait()
        if let message = failure.withLock({ $0 }) { fail(message) }
        var received: Int32 = 0
        sigwait(&signals, &received)
        broker.stop()
        let stopped = DispatchSemaphore(value: 0)
        Task {
            await broker.waitUntilStopped()
            stopped.signal()
        }
        stopped.wait()
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("gateway-bench broker: \(message)\n".utf8))
        exit(1)
    }
}

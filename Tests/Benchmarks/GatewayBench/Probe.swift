import Foundation
import Majordomo
import ZeroMQ

/// The measuring client: a DEALER on this thread, speaking MDP to the
/// gateway or sending bare frames to the raw echo.
enum Probe {
    struct Latency {
        let p50: Duration
        let p99: Duration

        init(sorting times: [Duration]) {
            let times = times.sorted()
            (p50, p99) = (times[times.count / 2], times[min(times.count - 1, times.count * 99 / 100)])
        }
    }

    private static func message(_ body: Frame, gateway: Bool) -> [Frame] {
        gateway ? MDP.clientRequest(service: "echo", body: [body]) : [Frame(), body]
    }

    private static func connect(_ context: Context, _ endpoint: String) throws -> Socket {
        let socket = try Socket(context, .dealer)
        try socket.set(.sendHighWaterMark, 0)
        try socket.set(.receiveHighWaterMark, 0)
        try socket.connect(endpoint)
        return socket
    }

    /// One round trip, timed from the send until the reply arrives: what
    /// the caller checks in the reply comes after the clock.
    static func roundTrip(_ socket: Socket, _ request: [Frame]) throws -> (time: Duration, reply: [Frame]) {
        let clock = ContinuousClock()
        let start = clock.now
        try socket.send(request)
        let reply = try socket.receive()
        let time = start.duration(to: clock.now)
        guard let reply else { throw BenchError("no reply") }
        return (time, reply)
    }

    /// `samples` times that `timed` takes, after `warmUp` calls not kept;
    /// it is given the call's number, warm-up included.
    static func sample(_ samples: Int, warmUp: Int, _ timed: (Int) throws -> Duration) throws -> Latency {
        var times: [Duration] = []
        times.reserveCapacity(samples)
        for index in 0..<(warmUp + samples) {
            let time = try timed(index)
            if index >= warmUp { times.append(time) }
        }
        return Latency(sorting: times)
    }

    /// Sequential round trips, after a warm-up.
    static func latency(_ context: Context, _ endpoint: String, body: Frame, samples: Int, gateway: Bool) throws -> Latency {
        let socket = try connect(context, endpoint)
        let request = message(body, gateway: gateway)
        return try sample(samples, warmUp: 1000) { _ in try roundTrip(socket, request).time }
    }

    /// Requests per second with `window` requests kept in flight.
    static func throughput(_ context: Context, _ endpoint: String, body: Frame, requests: Int, window: Int, gateway: Bool) throws -> Double {
        let socket = try connect(context, endpoint)
        let request = message(body, gateway: gateway)
        let clock = ContinuousClock()
        let start = clock.now
        var sent = 0
        var received = 0
        while sent < min(window, requests) {
            try socket.send(request)
            sent += 1
        }
        while received < requests {
            guard try socket.receive() != nil else { throw BenchError("no reply") }
            received += 1
            if sent < requests {
                try socket.send(request)
                sent += 1
            }
        }
        return Double(requests) / seconds(start.duration(to: clock.now))
    }

    /// The product's async client: `concurrency` tasks, each awaiting its replies.
    static func asyncThroughput(_ context: Context, _ endpoint: String, body: Frame, requests: Int, concurrency: Int) async throws -> Double {
        let client = try MajordomoClient(endpoint: endpoint, context: context) { $0.first?.string }
        let perTask = requests / concurrency
        let clock = ContinuousClock()
        let start = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<concurrency {
                group.addTask {
                    for index in 0..<perTask {
                        let id = "\(task)-\(index)"
                        _ = try await client.request(service: "echo", body: [Frame(id)], correlationID: id)
                    }
                }
            }
            try await group.waitForAll()
        }
        return Double(perTask * concurrency) / seconds(start.duration(to: clock.now))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

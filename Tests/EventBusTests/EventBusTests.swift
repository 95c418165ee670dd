import EventBus
import Foundation
import Logging
import Synchronization
import TestSupport
import TestTraits
import Testing
@testable import ZeroMQ

private let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

@Suite("Event bus", .serialized, .ownThread, .timeLimit(.minutes(5)))
struct EventBusTests {
    /// A bus on ipc:// endpoints in a fresh directory, stopped before it is removed.
    private func withBus(_ body: (Context, String, String) async throws -> Void) async throws {
        try await withBus { context, publishAt, subscribeAt, _ in try await body(context, publishAt, subscribeAt) }
    }

    private func withBus(_ body: (Context, String, String, EventBus) async throws -> Void) async throws {
        let directory = try makeTemporaryDirectory("bus")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let context = try Context()
        let bus = EventBus(
            options: .init(publishEndpoints: ["ipc://\(directory)/in.ipc"], subscribeEndpoints: ["ipc://\(directory)/out.ipc"]),
            context: context, logger: quiet)
        let endpoints = try await bus.start()
        do { try await body(context, endpoints[0], endpoints[1], bus) } catch {
            bus.stop()
            await bus.waitUntilStopped()
            throw error
        }
        bus.stop()
        await bus.waitUntilStopped()
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/in.ipc"), "the bus removes its socket files")
    }

    /// Publishes until the subscriber has something (subscriptions travel asynchronously).
    /// Looks without holding a thread: the bus runs beside the test.
    private func firstDelivery(_ subscriber: Socket, publish: () throws -> Void) async throws -> [Frame]? {
        for _ in 0..<100 {
            try publish()
            if let message = try await firstValue(within: .milliseconds(20), { try subscriber.receive(wait: false) }) { return message }
        }
        return nil
    }

    @Test func test_aPublishedEventReachesASubscriberOfItsTopic_andNoOther() async throws {
        try await withBus { context, publishAt, subscribeAt in
            let publisher = try Socket(context, .publish)
            try publisher.connect(publishAt)
            let posts = try Socket(context, .subscribe)
            try posts.set(.subscribe, Array("posts.".utf8))
            try posts.connect(subscribeAt)
            let delivered = try await firstDelivery(posts) {
                try publisher.send(["search.changed", "{}"])
                try publisher.send(["posts.changed", #"{"service":"posts","head":1}"#])
            }
            #expect(delivered == ["posts.changed", #"{"service":"posts","head":1}"#])
            while let message = try await firstValue(within: .milliseconds(50), { try posts.receive(wait: false) }) {
                #expect(message.first == "posts.changed", "only the subscribed topic arrives")
            }
        }
    }

    @Test func test_anEventPublisherDeliversThroughTheBus_withoutBlockingItsCaller() async throws {
        try await withBus { context, publishAt, subscribeAt in
            let publisher = try EventPublisher(endpoint: publishAt, context: context, logger: quiet)
            defer { publisher.close() }
            let subscriber = try Socket(context, .subscribe)
            try subscriber.set(.subscribe, [])
            try subscriber.connect(subscribeAt)
            // The bus carries any body: what it means is the publisher's (Wire's ChangeNotice).
            let body = Array(#"{"service":"posts","head":7}"#.utf8)
            let delivered = try await firstDelivery(subscriber) { publisher.publish(topic: "posts.changed", body: body) }
            #expect(delivered?.first == "posts.changed")
            #expect(delivered?.last?.bytes == body)
        }
    }

    /// A subscriber that never reads costs the bus what may wait for one
    /// subscriber; past it, its deliveries are dropped and counted, and the
    /// others' go on.
    @Test func test_aSubscriberThatNeverReads_losesEvents_andTheOthersGetTheirs() async throws {
        try await withBus { context, publishAt, subscribeAt, bus in
            let stuck = try #require(rawSubscriber(to: subscribeAt))
            defer { close(stuck) }
            let publisher = try Socket(context, .publish)
            try publisher.connect(publishAt)
            let reader = try Socket(context, .subscribe)
            try reader.set(.subscribe, [])
            try reader.connect(subscribeAt)
            let body = Frame([UInt8](repeating: 7, count: 1024))
            var received = 0
            let deadline = ContinuousClock.now + .seconds(20)
            while bus.messagesDropped == 0 || received < 100, ContinuousClock.now < deadline {
                for _ in 0..<50 { try publisher.send(["posts.changed", body]) }
                while try reader.receive(wait: false) != nil { received += 1 }
                try await Task.sleep(for: .milliseconds(1))
            }
            #expect(bus.messagesDropped > 0, "the stuck subscriber's deliveries are dropped once 1 MiB waits for it")
            #expect(received >= 100, "the subscriber that reads gets its events: \(received)")
        }
    }

    @Test func test_anEndpointThatCannotBeBound_isReportedByStart() async throws {
        let bus = EventBus(
            options: .init(publishEndpoints: ["carrier-pigeon://x"], subscribeEndpoints: []),
            context: try Context(), logger: quiet)
        await #expect(throws: ZMQError.self) { try await bus.start() }
    }
}

/// A SUB that subscribes to everything over a bare Unix socket, then never
/// reads: what a hung subscriber looks like to the bus.
private func rawSubscriber(to endpoint: String) -> Int32? {
    guard let descriptor = StreamListener.connect(to: endpoint) else { return nil }
    let property: [UInt8] = [11] + Array("Socket-Type".utf8) + [0, 0, 0, 3] + Array("SUB".utf8)
    let ready: [UInt8] = [4, UInt8(6 + property.count), 5] + Array("READY".utf8) + property
    let subscribe: [UInt8] = [0, 1, 1]
    let bytes = ZMTP.greeting + ready + subscribe
    guard write(descriptor, bytes, bytes.count) == bytes.count else {
        close(descriptor)
        return nil
    }
    return descriptor
}

/// The services' own ends of the bus, `EventPublisher` and
/// `EventSubscriber`, speak our own ZMTP where it serves the endpoint: a
/// subscriber hears its topic and no other, and hears it again from a bus
/// that restarted on the same endpoints (its subscription is said again
/// on every new connection).
@Suite("Event publisher and subscriber", .serialized, .ownThread, .timeLimit(.minutes(2)))
struct EventEndsTests {
    @Test func test_aSubscriberHearsItsTopicOnly_andHearsItAgainFromABusThatRestarted() async throws {
        let directory = try makeTemporaryDirectory("bus")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let context = try Context()
        let options = EventBus.Options(publishEndpoints: ["ipc://\(directory)/in.ipc"], subscribeEndpoints: ["ipc://\(directory)/out.ipc"])
        #expect(context.speaksZMTPItself(options.publishEndpoints[0], binding: false), "our own ZMTP carries both ends")
        var bus = EventBus(options: options, context: context, logger: quiet)
        // Whichever bus runs when the test ends, even by a throw, stops.
        defer { bus.stop() }
        let endpoints = try await bus.start()
        let heard = Mutex<[String]>([])
        let subscriber = try EventSubscriber(endpoint: endpoints[1], topic: "posts.", context: context, logger: quiet) { topic, body in
            heard.withLock { $0.append("\(topic) \(String(decoding: body, as: UTF8.self))") }
        }
        defer { subscriber.close() }
        let publisher = try EventPublisher(endpoint: endpoints[0], context: context, logger: quiet)
        defer { publisher.close() }
        func publishUntilHeard(_ head: Int) async -> Bool {
            await eventually(within: .seconds(20), every: .milliseconds(20)) {
                publisher.publish(topic: "search.changed", body: Array("{}".utf8))
                publisher.publish(topic: "posts.changed", body: Array("\(head)".utf8))
                return heard.withLock { $0.contains("posts.changed \(head)") }
            }
        }
        #expect(await publishUntilHeard(1))
        bus.stop()
        await bus.waitUntilStopped()
        bus = EventBus(options: options, context: context, logger: quiet)
        _ = try await bus.start()
        #expect(await publishUntilHeard(2), "both ends connected again, and the subscription was said again")
        #expect(heard.withLock { $0.allSatisfy { $0.hasPrefix("posts.changed ") } }, "only the topic subscribed to")
        bus.stop()
        await bus.waitUntilStopped()
    }

    /// A publisher beside two buses, one of which finished its handshake
    /// and then never reads: past 1 MiB waiting for it, that bus misses
    /// events (counted, and said in the log), the publisher stays small,
    /// and the other bus's subscriber still hears every event.
    @Test func test_aBusThatNeverReads_missesEventsPastOneMiB_andTheOtherBusHearsThemAll() async throws {
        let directory = try makeTemporaryDirectory("bus")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let context = try Context()
        let stuck = try StreamListener(endpoint: "ipc://\(directory)/stuck.ipc")
        defer { stuck.close() }
        let bus = EventBus(
            options: .init(publishEndpoints: ["ipc://\(directory)/in.ipc"], subscribeEndpoints: ["ipc://\(directory)/out.ipc"]),
            context: context, logger: quiet)
        defer { bus.stop() }
        let endpoints = try await bus.start()
        let heard = Mutex<Set<String>>([])
        let subscriber = try EventSubscriber(endpoint: endpoints[1], topic: "posts.", context: context, logger: quiet) { _, body in
            _ = heard.withLock { $0.insert(String(decoding: body.prefix(8), as: UTF8.self)) }
        }
        defer { subscriber.close() }
        let publisher = try EventPublisher(endpoints: [stuck.endpoint, endpoints[0]], context: context, logger: quiet)
        defer { publisher.close() }
        var peer: Int32?
        #expect(
            await eventually(within: .seconds(10), every: .milliseconds(5)) {
                if case .connection(let accepted) = stuck.accept() { peer = accepted }
                return peer != nil
            }, "the publisher connected to the stuck bus")
        guard let peer else { return }
        defer { close(peer) }
        // The stuck bus says its greeting and READY, then never reads.
        let opening = ZMTP.greeting + ZMTPEncoder.ready(socketType: "XSUB", identity: nil)
        #expect(send(peer, opening, opening.count, Int32(MSG_NOSIGNAL)) == opening.count)
        #expect(
            await eventually(within: .seconds(20), every: .milliseconds(20)) {
                publisher.publish(topic: "posts.changed", body: Array("warm-up ".utf8))
                return heard.withLock { $0.contains("warm-up ") }
            }, "the subscriber hears the other bus")
        let events = 400
        let size = 32 << 10
        let missedBefore = publisher.eventsMissed
        // Ten at a time, each ten heard before the next: as fast as the
        // other bus and its subscriber take them (faster, and that bus
        // would miss events too, as it should).
        for batch in stride(from: 0, to: events, by: 10) {
            let numbers = (batch..<batch + 10).map { String(format: "%08d", $0) }
            for number in numbers {
                publisher.publish(topic: "posts.changed", body: Array(number.utf8) + [UInt8](repeating: 120, count: size - 8))
            }
            let all = Set(numbers)
            let everyOne = await eventually(within: .seconds(20)) { heard.withLock { all.isSubset(of: $0) } }
            #expect(everyOne, "the other bus's subscriber heard events \(batch) to \(batch + 9)")
            guard everyOne else { return }
        }
        let taken = events - (publisher.eventsMissed - missedBefore)
        // What the stuck bus took: 1 MiB waiting in the publisher, what the
        // kernel's socket buffers hold, and the event that crossed the line.
        #expect(taken > 0 && taken * size < 2 << 20, "the stuck bus took \(taken) events of \(size) bytes")
    }
}

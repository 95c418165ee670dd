import ZeroMQ

extension BrokerCore {
    /// 8/MMI: `mmi.service` answers "200" when the named service has a
    /// worker, "404" when not; other `mmi.*` names go to the introspection
    /// provider, and "501" when it has no such service.
    mutating func answerInternal(client: Frame, service: String, body: [Frame], now: Instant) {
        let answer: [Frame]
        if service == MDP.mmiServiceName {
            let asked = body.first?.string ?? ""
            answer = [Frame((services[asked]?.workers ?? 0) > 0 ? "200" : "404")]
        } else {
            answer = replies.introspection(service: service, request: body, snapshot: snapshot(now: now)) ?? [Frame("501")]
        }
        totals.replies += 1
        outbox.append([client, MDP.empty, MDP.clientHeader, Frame(service)] + answer)
    }

    func snapshot(now: Instant) -> BrokerSnapshot {
        var all: [Int64] = []
        let serviceList = services.sorted { $0.key < $1.key }.map { name, service in
            all.append(contentsOf: service.latency.samples)
            return BrokerSnapshot.Service(
                name: name, workers: service.workers, idleWorkers: service.idle.count,
                queued: service.queue.count, requests: service.requests, replies: service.replies,
                refused: service.refused, latency: LatencySummary(nanoseconds: service.latency.samples)
            )
        }
        let workerList = workers.values.map { worker in
            let identity = Self.readable(worker.identity.bytes)
            return BrokerSnapshot.Worker(
                identity: identity, pid: WorkerSession.pid(inRoutingID: identity),
                service: worker.service, busy: !worker.inHand.isEmpty, handled: worker.handled,
                silentFor: worker.lastHeard.duration(to: now), connectedFor: worker.connected.duration(to: now),
                brokers: worker.brokers
            )
        }.sorted { ($0.service, $0.identity) < ($1.service, $1.identity) }
        return BrokerSnapshot(
            uptime: started.duration(to: now), services: serviceList, workers: workerList,
            totals: totals, latency: LatencySummary(nanoseconds: all), configuration: configuration
        )
    }
}

extension BrokerCore {
    /// A routing id as its text when it is printable ASCII (our workers name
    /// themselves `<pid>.<random>`), otherwise as hex (libzmq's own ids).
    static func readable(_ identity: [UInt8]) -> String {
        if !identity.isEmpty, identity.allSatisfy({ (0x21...0x7E).contains($0) }) {
            return String(decoding: identity, as: UTF8.self)
        }
        return identity.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}

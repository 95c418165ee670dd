import DequeModule
import HeapModule
import ZeroMQ

extension BrokerCore {
    /// A service's waiting requests, taken round-robin across the clients
    /// that have some waiting: each client's oldest in turn, so a client with
    /// a thousand waiting delays another's by one request, not a thousand.
    ///
    /// Each request gets a turn number as it arrives: one past its client's
    /// last turn; or, for a client with nothing waiting, the lowest turn
    /// waiting (after the requests already there with it: at most one of
    /// each client). The lowest number goes first, the earlier arrival among
    /// equals, which is round-robin without a queue per client. A request
    /// handed back by a worker that died goes before every other.
    ///
    /// While every waiting request is one client's, which is the usual case
    /// (and always so for a request that a worker takes at once), they wait
    /// in a plain first-in first-out queue: no turn, no hashing. The turns
    /// are given the moment a second client's request comes, exactly as if
    /// they had been kept all along.
    struct FairQueue {
        private struct Entry: Comparable {
            let turn: UInt64
            let arrival: UInt64
            var request: Request

            static func < (left: Entry, right: Entry) -> Bool {
                (left.turn, left.arrival) < (right.turn, right.arrival)
            }

            static func == (left: Entry, right: Entry) -> Bool {
                left.turn == right.turn && left.arrival == right.arrival
            }
        }

        /// Requests whose worker died: first, in the order they came back.
        private var returned = Deque<Request>()
        /// While only one client has requests waiting: them, oldest first.
        private var single = Deque<Request>()
        /// While two or more clients have: all of them, by turn.
        private var heap = Heap<Entry>()
        /// Each client's last turn, while it has requests in `heap`.
        private var lastTurn: [Frame: UInt64] = [:]
        /// The turn of the request taken last.
        private var turn: UInt64 = 0
        private var arrivals: UInt64 = 0

        var count: Int { returned.count + single.count + heap.count }
        var isEmpty: Bool { returned.isEmpty && single.isEmpty && heap.isEmpty }

        /// Calls `body` with each waiting request, in no particular order.
        func forEach(_ body: (Request) -> Void) {
            returned.forEach(body)
            single.forEach(body)
            for entry in heap.unordered { body(entry.request) }
        }

        mutating func append(_ request: Request) {
            if heap.isEmpty {
                if single.isEmpty || single[0].client == request.client {
                    single.append(request)
                    return
                }
                // A second client: the first one's requests take their turns now.
                for waiting in single { appendTurn(waiting) }
                single.removeAll(keepingCapacity: true)
            }
            appendTurn(request)
        }

        private mutating func appendTurn(_ request: Request) {
            let index = lastTurn.index(forKey: request.client)
            let next = index.map { max(turn, lastTurn.values[$0]) + 1 } ?? heap.min?.turn ?? turn + 1
            if let index { lastTurn.values[index] = next } else { lastTurn[request.client] = next }
            arrivals += 1
            heap.insert(Entry(turn: next, arrival: arrivals, request: request))
        }

        /// Puts a request first (one a dead worker held).
        mutating func prepend(_ request: Request) {
            returned.append(request)
        }

        /// The next request; the queue must not be empty.
        mutating func removeFirst() -> Request {
            if let request = returned.popFirst() { return request }
            if let request = single.popFirst() { return request }
            let entry = heap.removeMin()
            turn = max(turn, entry.turn)
            if let index = lastTurn.index(forKey: entry.request.client), lastTurn.values[index] <= entry.turn {
                lastTurn.remove(at: index)
            }
            return entry.request
        }

        /// Takes out the requests for which `condition` holds.
        mutating func removeAll(where condition: (Request) -> Bool) -> [Request] {
            var removed: [Request] = []
            for queue in [\Self.returned, \Self.single] where self[keyPath: queue].contains(where: condition) {
                removed += self[keyPath: queue].filter(condition)
                self[keyPath: queue].removeAll(where: condition)
            }
            guard heap.unordered.contains(where: { condition($0.request) }) else { return removed }
            var kept: [Entry] = []
            for entry in heap.unordered {
                if condition(entry.request) { removed.append(entry.request) } else { kept.append(entry) }
            }
            heap = Heap(kept)
            // Turns only of clients that still have requests waiting.
            lastTurn = kept.reduce(into: [:]) { turns, entry in
                turns[entry.request.client] = max(turns[entry.request.client] ?? 0, entry.turn)
            }
            return removed
        }
    }
}

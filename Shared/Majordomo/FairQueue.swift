import HeapModule
import ZeroMQ

extension BrokerCore {
    /// A service's waiting requests, taken round-robin across the clients
    /// that have some waiting: each client's oldest in turn, so a client with
    /// a thousand waiting delays another's by one request, not a thousand.
    ///
    /// Each request gets a turn number as it arrives: one past its client's
    /// last turn, or past the turn being served now, whichever is later. The
    /// lowest number goes first (the earlier arrival among equals), which is
    /// round-robin without a queue per client. A request handed back by a
    /// worker that died goes before every other.
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

        private var heap = Heap<Entry>()
        /// Each client's last turn, while it has requests waiting.
        private var lastTurn: [Frame: UInt64] = [:]
        /// The turn of the request taken last.
        private var turn: UInt64 = 0
        private var arrivals: UInt64 = 0

        var count: Int { heap.count }
        var isEmpty: Bool { heap.isEmpty }

        /// The requests waiting, in no particular order.
        var requests: some Sequence<Request> { heap.unordered.lazy.map(\.request) }

        mutating func append(_ request: Request) {
            let index = lastTurn.index(forKey: request.client)
            let next = max(turn, index.map { lastTurn.values[$0] } ?? 0) + 1
            if let index { lastTurn.values[index] = next } else { lastTurn[request.client] = next }
            arrivals += 1
            heap.insert(Entry(turn: next, arrival: arrivals, request: request))
        }

        /// Puts a request first (one a dead worker held).
        mutating func prepend(_ request: Request) {
            heap.insert(Entry(turn: turn, arrival: 0, request: request))
        }

        mutating func removeFirst() -> Request {
            let entry = heap.removeMin()
            turn = max(turn, entry.turn)
            if let index = lastTurn.index(forKey: entry.request.client), lastTurn.values[index] <= entry.turn {
                lastTurn.remove(at: index)
            }
            return entry.request
        }

        /// Takes out the requests for which `condition` holds.
        mutating func removeAll(where condition: (Request) -> Bool) -> [Request] {
            guard heap.unordered.contains(where: { condition($0.request) }) else { return [] }
            var kept: [Entry] = []
            var removed: [Request] = []
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

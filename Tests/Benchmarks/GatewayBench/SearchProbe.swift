import Foundation
import Majordomo
import ZeroMQ

/// What the search suites ask the search workers through a lab's gateway:
/// a request, a query's text, and a wait until the workers hold every post.
struct SearchProbe {
    let lab: Lab
    let context: Context
    /// The posts every worker must hold to be caught up.
    let count: Int

    func request(_ service: String, _ body: String, socket existing: Socket? = nil) throws -> [String: Any] {
        let socket =
            try existing
            ?? {
                let socket = try Socket(context, .dealer)
                try socket.connect(lab.gatewayEndpoint)
                return socket
            }()
        try socket.send(MDP.clientRequest(service: Frame(service), body: [Frame(body)]))
        guard let reply = try socket.receive(), let data = reply.last.map({ Data($0.bytes) }),
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw BenchError("no reply from \(service)") }
        return object
    }

    static func query(_ q: String, id: Int) -> String {
        let text = String(data: try! JSONEncoder().encode(q), encoding: .utf8)!
        return #"{"jsonrpc":"2.0","id":\#(id),"method":"search.query","params":{"q":\#(text),"limit":10}}"#
    }

    /// Until `workers` workers hold every post and rank by their postings;
    /// answers how long that took.
    @discardableResult
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    func waitCaughtUp(workers: Int) throws -> Duration {
        let start = ContinuousClock.now
        let deadline = start + .seconds(300)
        var caughtUp: Set<Int> = []
        while caughtUp.count < workers {
            guard ContinuousClock.now < deadline else { throw BenchError("search workers did not catch up") }
            let result = try request("search", #"{"jsonrpc":"2.0","id":1,"method":"search.stats"}"#)["result"] as? [String: Any] ?? [:]
            let stats = result["index"] as? [String: Any] ?? [:]
            let ranking = result["rankingLoaded"] as? Bool ?? true
            if stats["documents"] as? Int ?? 0 >= count, stats["lag"] as? Int == 0, ranking, let worker = stats["pid"] as? Int {
                caughtUp.insert(worker)
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return start.duration(to: .now)
    }
}

import Foundation

/// The failover checker's history (written by `failover-client`), and what
/// it must agree with: the posts as stored at the end, checked post by post
/// as a register written by compare-and-set (an edit-if-unchanged succeeds
/// only from the version it read).
struct FailoverHistory {
    struct Operation {
        var op: String
        var type: String
        var client: Int
        var invoke: Double
        var complete: Double
        var uid: String?
        var title: String?
        var word: String?
        /// The version (update date, ms) an edit read, and the one a write made.
        var from: Int64?
        var to: Int64?
        var deleted: Bool?
        /// It failed for want of an answer (no gateway, no worker, a timeout).
        var unavailable: Bool
        var error: String?
    }

    /// A post as stored at the end.
    struct Stored: Equatable {
        var title: String
        var updateMilliseconds: Int64
    }

    let operations: [Operation]

    init(path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        operations = text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return Operation(
                op: object["op"] as? String ?? "", type: object["type"] as? String ?? "", client: object["client"] as? Int ?? -1,
                invoke: object["invoke"] as? Double ?? 0, complete: object["complete"] as? Double ?? 0, uid: object["uid"] as? String,
                title: object["title"] as? String, word: object["word"] as? String, from: (object["from"] as? NSNumber)?.int64Value,
                to: (object["to"] as? NSNumber)?.int64Value, deleted: object["deleted"] as? Bool,
                unavailable: object["unavailable"] as? Bool ?? false, error: object["error"] as? String)
        }
    }

    var writes: [Operation] { operations.filter { ["create", "edit", "delete"].contains($0.op) } }

    /// Operations that failed for want of an answer.
    var unavailable: [Operation] { operations.filter(\.unavailable) }

    /// Counts by operation and outcome, e.g. `edit ok 120`.
    var counts: [String: Int] {
        operations.reduce(into: [:]) { counts, operation in counts["\(operation.op) \(operation.type)", default: 0] += 1 }
    }

    /// For each fault (when, ms) and each client, how long from the fault to
    /// that client's next successful reply; sorted, in ms.
    func failoverTimes(after faults: [Double]) -> [Double] {
        let clients = Set(operations.map(\.client))
        var times: [Double] = []
        for fault in faults {
            for client in clients {
                let next = operations.filter { $0.client == client && $0.type == "ok" && $0.complete > fault }.map(\.complete).min()
                if let next { times.append(next - fault) }
            }
        }
        return times.sorted()
    }

    /// Everything in the history that the stored posts contradict: an
    /// acknowledged write lost, two edits applied from one version, a post
    /// whose final state no write explains, a delete that said "no such
    /// post" of a post only it deleted.
    func violations(stored: [String: Stored]) -> [String] {
        var problems: [String] = []
        let byPost = Dictionary(grouping: writes.filter { $0.uid != nil }, by: { $0.uid! })
        for (uid, history) in byPost {
            guard let create = history.first(where: { $0.op == "create" && $0.type == "ok" }), let created = create.to else { continue }
            let edits = history.filter { $0.op == "edit" }
            let applied = edits.filter { $0.type == "ok" }
            let unknown = edits.filter { $0.type == "info" }
            // Compare-and-set: no two edits applied from one version, and each
            // from a version some write made (one whose outcome is unknown may
            // have made it).
            let froms = applied.compactMap(\.from)
            if Set(froms).count != froms.count { problems.append("\(uid): two edits were applied from one version \(froms.sorted())") }
            let made = Set([created] + applied.compactMap(\.to))
            let unexplained = froms.filter { !made.contains($0) }.count
            if unexplained > unknown.count {
                problems.append("\(uid): \(unexplained) edits read versions no write made (\(unknown.count) edits of unknown outcome)")
            }
            let deletes = history.filter { $0.op == "delete" }
            if deletes.contains(where: { $0.type == "ok" && $0.deleted == false }) {
                problems.append("\(uid): its one delete said there was no such post")
            }
            let deleted = deletes.contains { $0.type == "ok" && $0.deleted == true }
            let maybeDeleted = deletes.contains { $0.type == "info" }
            guard let final = stored[uid] else {
                if !deleted && !maybeDeleted { problems.append("\(uid): acknowledged, never deleted, and gone") }
                continue
            }
            if deleted { problems.append("\(uid): deleted, acknowledged, and still there") }
            // The final state ends the chain of applied writes, or comes from
            // a write whose outcome is unknown.
            let writers = [create] + applied
            let last = writers.filter { writer in !froms.contains(writer.to ?? -1) }
            let explained =
                last.contains { $0.to == final.updateMilliseconds && $0.title == final.title } || unknown.contains { $0.title == final.title }
            if !explained {
                problems.append(
                    "\(uid): stored '\(final.title)' at \(final.updateMilliseconds), but the last acknowledged writes were "
                        + "\(last.map { "'\($0.title ?? "")' at \($0.to ?? 0)" })")
            }
        }
        return problems
    }

    /// p50, p99 and max of sorted `times`.
    static func percentiles(_ times: [Double]) -> (p50: Double, p99: Double, max: Double) {
        guard !times.isEmpty else { return (0, 0, 0) }
        func at(_ q: Double) -> Double { times[min(times.count - 1, Int((Double(times.count) * q).rounded(.up)) - 1)] }
        return (at(0.5), at(0.99), times.last!)
    }
}

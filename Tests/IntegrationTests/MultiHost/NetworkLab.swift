import Foundation
import Synchronization
import TestSupport

/// Hosts as Linux network namespaces: host "a" in the middle, linked to
/// each other host by a veth pair of its own (a star, as every process
/// talks only to the gateway on "a"). Needs root. `remove()` deletes every
/// namespace, and so every link; namespaces a crashed run left behind are
/// removed by the next.
final class NetworkLab: @unchecked Sendable {
    static let ip = "/usr/sbin/ip"
    static let prefix = "pmh"
    private static let made = Atomic<Int>(0)
    let name: String
    let hosts: [String]
    /// 10.<subnet>.<host index>.{1 on a, 2 on the host}
    let subnet: Int

    /// One lab at a time in this test process: each runs a dozen processes,
    /// and two at once on a small machine time each other out. `open` waits
    /// for its turn; `remove()` gives it up.
    static func open(hosts: [String]) async throws -> NetworkLab {
        await LabTurns.shared.take()
        do {
            return try await onOwnThread { try NetworkLab(hosts: hosts) }
        } catch {
            await LabTurns.shared.give()
            throw error
        }
    }

    private let turnGiven = Atomic<Bool>(false)

    /// Root, and iproute2 present: what the namespace tests need.
    static var isAvailable: Bool { getuid() == 0 && FileManager.default.isExecutableFile(atPath: ip) }

    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    init(hosts: [String]) throws {
        Self.removeStale()
        // At most 15 characters with a host name of two and "x"; a letter per
        // lab, so two labs of one test process never share a namespace.
        let letter = Self.made.add(1, ordering: .relaxed).newValue % 26
        name = "\(Self.prefix)\(getpid())\(Character(UnicodeScalar(UInt8(97 + letter))))"
        self.hosts = hosts
        subnet = 100 + Int(getpid() % 100)
        do {
            for host in hosts { try Self.run(["netns", "add", namespace(host)]) }
            for host in hosts { try Self.run(["-n", namespace(host), "link", "set", "lo", "up"]) }
            for (index, host) in hosts.enumerated().dropFirst() {
                let (hub, spoke) = (link(host), "\(name)\(host)x")
                try Self.run(["link", "add", hub, "type", "veth", "peer", "name", spoke])
                try Self.run(["link", "set", hub, "netns", namespace(hosts[0])])
                try Self.run(["link", "set", spoke, "netns", namespace(host)])
                try Self.run(["-n", namespace(host), "link", "set", spoke, "name", "eth0"])
                try Self.run(["-n", namespace(hosts[0]), "addr", "add", "10.\(subnet).\(index).1/24", "dev", hub])
                try Self.run(["-n", namespace(host), "addr", "add", "10.\(subnet).\(index).2/24", "dev", "eth0"])
                try Self.run(["-n", namespace(hosts[0]), "link", "set", hub, "up"])
                try Self.run(["-n", namespace(host), "link", "set", "eth0", "up"])
                try Self.run(["-n", namespace(host), "route", "add", "default", "via", "10.\(subnet).\(index).1"])
            }
            // The hub routes between the other hosts (posts hosts to a database host).
            try Self.run(["netns", "exec", namespace(hosts[0]), "/bin/sh", "-c", "echo 1 > /proc/sys/net/ipv4/ip_forward"])
        } catch {
            remove()
            throw error
        }
    }

    func namespace(_ host: String) -> String { "\(name)\(host)" }

    /// The hub's end of `host`'s link (in namespace "a").
    func link(_ host: String) -> String { "\(name)\(host)" }

    /// The hub's address as `host` reaches it.
    func hubAddress(for host: String) -> String {
        "10.\(subnet).\(hosts.firstIndex(of: host)!).1"
    }

    /// `host`'s own address (not the hub's).
    func address(of host: String) -> String {
        "10.\(subnet).\(hosts.firstIndex(of: host)!).2"
    }

    /// Runs a command inside `host`'s namespace.
    func wrapper(_ host: String) -> [String] { [Self.ip, "netns", "exec", namespace(host)] }

    /// Takes `host`'s link down at the hub, as if its cable were pulled.
    func cut(_ host: String) async throws {
        let arguments = ["-n", namespace(hosts[0]), "link", "set", link(host), "down"]
        try await onOwnThread { try Self.run(arguments) }
    }

    /// Puts `host`'s link back up at the hub.
    func heal(_ host: String) async throws {
        let arguments = ["-n", namespace(hosts[0]), "link", "set", link(host), "up"]
        try await onOwnThread { try Self.run(arguments) }
    }

    /// Deletes every namespace, on a thread of its own (it returns at once,
    /// for a `defer`), and then gives the next lab its turn.
    func remove() {
        let namespaces = hosts.map(namespace)
        let giveTurn = !turnGiven.exchange(true, ordering: .relaxed)
        Thread {
            for namespace in namespaces { try? Self.run(["netns", "delete", namespace]) }
            if giveTurn { Task { await LabTurns.shared.give() } }
        }.start()
    }

    /// Deletes namespaces whose test process is gone (named by its pid).
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    static func removeStale() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/var/run/netns") else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0.isNumber }), pid != getpid(),
                kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            try? run(["netns", "delete", name])
        }
    }

    /// Runs `ip` to completion; throws with its output if it fails.
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    static func run(_ arguments: [String]) throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("lab-\(UUID().uuidString.prefix(8)).out").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let process = try Spawned(ip, arguments, environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], output: output, errors: output)
        guard let status = process.wait(within: .seconds(20)) else {
            process.killAndReap()
            throw HarnessError("ip \(arguments.joined(separator: " ")) did not finish")
        }
        guard status == 0 else {
            throw HarnessError(
                "ip \(arguments.joined(separator: " ")) exited \(status): \((try? String(contentsOfFile: output, encoding: .utf8)) ?? "")")
        }
    }
}

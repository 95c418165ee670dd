import Foundation
import Majordomo
import ServiceSupport
import TestSupport
import ZeroMQ

/// The processes under measurement, in a private runtime directory.
final class Lab {
    let binaries: String
    let directory: String
    private var processes: [Process] = []
    /// The first process started of each executable, by its name.
    private(set) var pids: [String: Int32] = [:]
    private var workers: [Process] = []
    /// MDP sessions the echo workers hold (other services' stay registered).
    private var echoSessions = 0

    /// CURVE for every connection, when the run asked for it (`--curve`).
    let keys: LabKeys?

    init(binaries: String, keys: LabKeys? = nil) throws {
        self.binaries = binaries
        self.keys = keys
        directory = try makeTemporaryDirectory("pb")
    }

    var gatewayEndpoint: String { "ipc://\(directory)/gateway.ipc" }

    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    func shutdown() {
        // Workers first, the gateway once they are gone: a worker's client
        // would log the gateway's going first as a failure.
        let isGateway = { (process: Process) in process.processIdentifier == self.pids["gateway"] }
        for group in [processes.filter { !isGateway($0) }, processes.filter(isGateway)] {
            for process in group where process.isRunning { process.terminate() }
            for process in group { process.waitUntilExit() }
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    @discardableResult
    private func spawn(_ path: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["POSTS_RUNTIME_DIR"] = directory
        environment["POSTS_DATA_DIR"] = directory  // search indexes in the lab, never the user's
        environment["POSTS_LOG_LEVEL"] = "warning"
        environment["POSTS_EXIT_WITH_PARENT"] = "1"
        // The gateway and the raw echo (this program, which binds) are
        // CURVE servers; everything else connects as a client.
        let binds = path.hasSuffix("/gateway") || arguments.first == "--raw-echo-server"
        for (name, value) in keys?.environment(binding: binds) ?? [:] { environment[name] = value }
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        processes.append(process)
        let name = (path as NSString).lastPathComponent
        if pids[name] == nil { pids[name] = process.processIdentifier }
        return process
    }

    func startRawEcho(self executable: String) throws -> String {
        let endpoint = "ipc://\(directory)/raw.ipc"
        try spawn(executable, ["--raw-echo-server", endpoint])
        try waitFor { FileManager.default.fileExists(atPath: "\(self.directory)/raw.ipc") }
        return endpoint
    }

    func startGateway() throws {
        try spawn("\(binaries)/gateway", [])
        try waitFor { FileManager.default.fileExists(atPath: "\(self.directory)/gateway.ipc") }
    }

    /// Starts an echo worker process with `sessions` MDP connections.
    func startEchoWorker(sessions: Int, inline: Bool = false, service: String = "echo", busyMicroseconds: Int = 0, context: Context) throws {
        let before = try registeredWorkers(context)
        let arguments =
            ["--raw", "--sessions", "\(sessions)", "--service", service, "--busy", "\(busyMicroseconds)"] + (inline ? ["--inline"] : [])
        workers.append(try spawn("\(binaries)/echo-worker", arguments))
        echoSessions += sessions
        try waitFor { (try? self.registeredWorkers(context)) ?? 0 >= before + sessions }
    }

    /// Starts posts-service on a database in the lab directory.
    /// On this lab's SQLite file, or on PostgreSQL at `databaseURL`.
    func startPostsService(sessions: Int, databaseURL: String? = nil, context: Context) throws {
        let before = try registeredWorkers(context)
        let database = databaseURL.map { ["--database-url", $0] } ?? ["--database", "\(directory)/posts.sqlite"]
        try spawn("\(binaries)/posts-service", database + ["--sessions", "\(sessions)"])
        try waitFor { (try? self.registeredWorkers(context)) ?? 0 >= before + sessions }
    }

    /// Starts a search-service and waits until the gateway lists it, which
    /// it does once it has built its index; returns its pid and that time.
    func startSearchService(context: Context, sessions: Int = 1, arguments: [String] = []) throws -> (pid: Int32, catchUp: Duration) {
        let before = try registeredWorkers(context)
        let started = ContinuousClock.now
        let process = try spawn("\(binaries)/search-service", ["--sessions", "\(sessions)"] + arguments)
        try waitFor(within: .seconds(300)) { (try? self.registeredWorkers(context)) ?? 0 >= before + sessions }
        return (process.processIdentifier, started.duration(to: .now))
    }

    /// Stops the search worker `pid` (SIGTERM) and waits until the gateway
    /// has let its session go and the process has exited (it saves its
    /// ranking postings last, and holds its index directory until then);
    /// answers how long it took to exit.
    @discardableResult
    func stopSearchService(_ pid: Int32, context: Context) throws -> Duration {
        let before = try registeredWorkers(context)
        let started = ContinuousClock.now
        kill(pid, SIGTERM)
        try waitFor(within: .seconds(30)) { (try? self.registeredWorkers(context)) ?? before < before }
        if let process = processes.first(where: { $0.processIdentifier == pid }) {
            try waitFor(within: .seconds(60)) { !process.isRunning }
        }
        return started.duration(to: .now)
    }

    /// Runs a command to completion and returns how long it took.
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    func time(_ executable: String, _ arguments: [String]) throws -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        let process = try spawn(executable.hasPrefix("/") ? executable : "\(binaries)/\(executable)", arguments)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError("\(executable) \(arguments) exited \(process.terminationStatus)") }
        return start.duration(to: clock.now)
    }

    /// Stops every echo worker and waits until the gateway has let them go.
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    func stopEchoWorkers(context: Context) throws {
        let remaining = try registeredWorkers(context) - echoSessions
        for worker in workers { worker.terminate() }
        for worker in workers { worker.waitUntilExit() }
        workers.removeAll()
        echoSessions = 0
        try waitFor { (try? self.registeredWorkers(context)) == remaining }
    }

    /// Worker sessions the gateway knows, read from mmi.workers.
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    private func registeredWorkers(_ context: Context) throws -> Int {
        let socket = try Socket(context, .dealer)
        try socket.connect(gatewayEndpoint)
        try socket.send(MDP.clientRequest(service: "mmi.workers", body: [Frame()]))
        var poller = Poller()
        poller.addReadable(socket)
        guard try poller.poll(timeout: .seconds(1)) > 0, let reply = try socket.receive(), let text = reply.last?.string else { return 0 }
        let result = (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["result"] as? [String: Any]
        let processes = result?["processes"] as? [[String: Any]] ?? []
        return processes.reduce(0) { $0 + ($1["sessions"] as? Int ?? 0) }
    }

    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    private func waitFor(within limit: Duration = .seconds(10), _ condition: () -> Bool) throws {
        guard waitBlocking(within: limit, condition) else { throw BenchError("a process did not come up within \(limit)") }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The baseline: a ROUTER that sends every message straight back.
enum RawEchoServer {
    static func serve(_ endpoint: String) throws {
        // With `--curve`, a CURVE server with the gateway's key (libzmq
        // admits any client when no allow-list is asked).
        let environment = ProcessInfo.processInfo.environment
        let security =
            try environment["POSTS_CURVE_KEY"].map { Security(keys: try KeyFiles.readSecret($0), curveOnIPC: true) } ?? .none
        let socket = try Socket(try Context(security: security), .router)
        try socket.set(.sendHighWaterMark, 0)
        try socket.bind(endpoint)
        while let message = try socket.receive() { try socket.send(message) }
    }
}

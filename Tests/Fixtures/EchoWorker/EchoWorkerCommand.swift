import ArgumentParser
import Foundation
import Logging
import Majordomo
import ServiceLifecycle
import ServiceSupport
import SystemSupport
import Wire
import ZeroMQ

/// Test and benchmark fixture: an MDP worker that answers every JSON-RPC
/// request with what it was sent, plus its service name and process id, so
/// a test can tell which worker answered.
@main
struct EchoWorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "echo-worker",
        abstract: "MDP worker that echoes requests (a fixture for tests and benchmarks).",
        discussion: """
            Connects to POSTS_GATEWAY (or --gateway). Replies {"service","pid","method","params"}; with --raw, the body unchanged.
            CURVE as for posts-service: --curve-key and --gateway-key (POSTS_CURVE_KEY, POSTS_GATEWAY_KEY).
            """
    )

    @Option(help: "Service name to register.") var service = "echo"
    @Option(help: "Gateway endpoint (default: POSTS_GATEWAY or the ipc default).") var gateway: String?
    @Option(help: "Time to spend on each request, e.g. 2s.") var delay: String?
    @Option(help: "Heartbeat interval.") var heartbeatInterval: String?
    @Option(help: "MDP connections to open.") var sessions = 1
    @Option(help: "Requests each session takes at once (POSTS_CREDIT; default 32; 1 is 7/MDP's one at a time).") var credit: Int?
    @Option(help: "Threads the sessions share (default: one per core, at most one per session).") var threads: Int?
    @Flag(help: "Reply with the request body unchanged.") var raw = false
    @Flag(help: "Answer on the session thread (a synchronous handler); ignores --delay.") var inline = false
    @Option(help: "Microseconds of CPU to spend on each request before answering, as a handler's work would (default: none).")
    var busy = 0
    @OptionGroup var curve: CurveOptions

    func run() async throws {
        let settings = Settings()
        ParentWatch.startIfRequested(environment: settings.environment)
        LogSetup.bootstrap(level: try settings.logLevel(nil))
        DescriptorLimit.raise(logging: Logger(label: "echo-worker"))
        guard sessions >= 1 else { throw ValidationError("--sessions must be at least 1, not \(sessions)") }
        guard (0...1_000_000).contains(busy) else { throw ValidationError("--busy must be 0 to 1000000 microseconds, not \(busy)") }
        let logger = Logger(label: "echo-worker")
        let configuration = try settings.workerConfiguration(
            sessions: sessions, defaultSessions: 1, credit: credit, defaultCredit: Settings.pipelineCredit, threads: threads,
            heartbeatInterval: heartbeatInterval)
        let pause = try delay.map { try settings.duration($0, env: "--delay", default: .zero) }
        let endpoints = try WorkerOptions.endpoints(gateway, flag: "--gateway", else: Endpoints.gateways(environment: settings.environment))
        // CURVE as the services take it (--curve-key, --gateway-key, POSTS_CURVE_KEY, …).
        let context: Context
        do {
            context = try settings.context(security: try curve.resolve(settings, endpoints: endpoints).security)
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
        context.logLibzmqUse(endpoints, binding: false, logger: logger)
        let worker = MajordomoWorker(
            endpoints: endpoints, service: service, configuration: configuration, context: context,
            logger: logger
        )
        let echo = Echo(service: service, raw: raw, pause: pause, busy: .microseconds(busy))
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: WorkerService(worker: worker, handler: inline ? .synchronous(echo.replyNow) : .async(echo.reply)))],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger
            ))
        try await group.run()
    }
}

struct Echo: Sendable {
    let service: String
    let raw: Bool
    let pause: Duration?
    /// CPU spent on each request (a loop on the clock, on the thread that
    /// answers), so that a benchmark can set a handler's work beside the
    /// transport's.
    let busy: Duration

    struct Reply: Encodable {
        let service: String
        let pid: Int32
        let method: String
        let params: JSONValue?
    }

    func reply(_ body: [Frame]) async -> [Frame] {
        if let pause { try? await Task.sleep(for: pause) }
        return replyNow(body)
    }

    func replyNow(_ body: [Frame]) -> [Frame] {
        if busy > .zero {
            let clock = ContinuousClock(), start = clock.now
            while start.duration(to: clock.now) < busy {}
        }
        if raw { return body }
        let data = body.first.map { Data($0.bytes) } ?? Data()
        switch JSONRPC.decodeRequest(data) {
        case .failure(let failure):
            return [Frame(JSONRPC.encodeError(id: failure.id, failure.error))]
        case .success(let request):
            let params = try? request.params(JSONValue?.self)
            let reply = Reply(service: service, pid: getpid(), method: request.method, params: params ?? nil)
            let encoded =
                (try? JSONRPC.encodeResult(id: request.id, reply))
                ?? JSONRPC.encodeError(id: request.id, JSONRPCError(.internalError, "encoding failed"))
            return [Frame(encoded)]
        }
    }
}

import ArgumentParser
import Domain
import EventBus
import Foundation
import LocalPlatform
import Logging
import Tracing
import Observability
import Majordomo
import NetworkPlatform
import ServiceLifecycle
import ServiceSupport
import Wire
import ZeroMQ

@main
struct SearchServiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search-service",
        abstract: "MDP worker for service 'search': full-text search over posts (SQLite FTS5).",
        discussion: """
            Each process keeps its own index, built from posts.changes and kept in
            step by change notices from the event bus and by a timer. It keeps it on
            disk, in an owner-only directory of its own: started again, it applies only
            what changed since, and ranks at once by the postings it saved when it
            stopped. It joins the gateway once its index has caught up, so it never
            answers from a half-built one. Start and stop as many as you like
            (honcho start -c search=4): each takes a free slot of <data dir>/search.

            Every flag has an environment variable; a flag wins over its variable:
              --gateway             POSTS_GATEWAY              default ipc://<runtime dir>/gateway.ipc
              --events-subscribe    POSTS_EVENTS_SUBSCRIBE     default ipc://<runtime dir>/events-subscribe.ipc
              --sync-interval       POSTS_SEARCH_SYNC_INTERVAL default 1s (the most a lost notice costs)
              --index-dir           POSTS_SEARCH_INDEX_DIR     default the first free slot of <data dir>/search/1…64,
                                                               the data dir being POSTS_DATA_DIR, else
                                                               $XDG_DATA_HOME/posts, else ~/.local/share/posts;
                                                               `memory` keeps it in memory, built anew at each start
              --sessions            POSTS_SESSIONS             default 2
              --credit              POSTS_CREDIT               default 2: requests each session takes at once
              --threads             POSTS_WORKER_THREADS       default one per core, at most one per session
              --heartbeat-interval  POSTS_HEARTBEAT_INTERVAL   default 2500ms
              --max-frame-size      POSTS_MAX_FRAME_SIZE       default 16777216, as the gateway's
              --log-level           POSTS_LOG_LEVEL            default info
              --curve-key           POSTS_CURVE_KEY            this process's CURVE secret-key file (tcp://)
              --gateway-key         POSTS_GATEWAY_KEY          the gateway's public key, Z85 text or file
              --curve-ipc           POSTS_CURVE_IPC=1          CURVE on ipc:// endpoints too
              --insecure            POSTS_INSECURE=1           allow tcp:// without CURVE (plaintext)
              (none)                POSTS_ZMTP                 own (default) or libzmq: who carries plaintext ipc:// and tcp://

            A worker on another host starts from a snapshot instead of the whole feed:
            `search-service --snapshot-to DIR` writes a consistent copy of this host's
            index (--index-dir's, else the slot that has applied the most), with its
            ranking postings, to the new directory DIR while the workers run, and
            exits. Moved there as it is (scp -rp), `search-service --index-dir DIR`
            goes on from it.

            Methods: \(SearchMethod.names.joined(separator: ", ")), rpc.stats (docs/PROTOCOL.md).
            """
    )

    @OptionGroup var worker: WorkerOptions
    @Option(help: ArgumentHelp("Event bus endpoints to subscribe to, comma-separated.", valueName: "endpoints"))
    var eventsSubscribe: String?
    @Option(help: ArgumentHelp("Pull changes at least this often.", valueName: "duration")) var syncInterval: String?
    @Option(help: ArgumentHelp("Keep the index in this directory (or `memory`).", valueName: "directory")) var indexDir: String?
    @Option(
        help: ArgumentHelp("Write a snapshot of the index to this new directory, for a worker on another host, and exit.", valueName: "directory"))
    var snapshotTo: String?

    func run() async throws {
        let settings = Settings()
        if let snapshotTo { return try await snapshot(to: snapshotTo, settings) }
        ParentWatch.startIfRequested(environment: settings.environment)
        let eventsEndpoints = try WorkerOptions.endpoints(
            eventsSubscribe, flag: "--events-subscribe", else: Endpoints.eventsSubscribe(environment: settings.environment))
        let resolved = try worker.resolve(settings, defaultSessions: 2, defaultCredit: 2, events: eventsEndpoints)
        let (endpoints, configuration, maxReplyBytes) = (resolved.endpoints, resolved.configuration, resolved.maxReplyBytes)
        let interval: Duration
        do {
            interval = try settings.duration(syncInterval, env: "POSTS_SEARCH_SYNC_INTERVAL", default: .seconds(1))
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
        let logger = Logger(label: "search-service")
        // First: every metric made after it is a real one, not a no-op.
        let metrics = try await MetricsStart.start(resolved.metrics, program: "search-service", logger: logger)
        let tracing = try TracingStart.start(serviceName: "search-service", environment: settings.environment)
        let context = resolved.context
        let posts = try NetworkPlatform.connect(endpoints: endpoints, security: resolved.security)
        let index = try openIndex(settings, logger: logger)
        let (start, documents) = (try await index.position(), try await index.documentCount())
        logger.info("index opened", metadata: ["applied": "\(start.applied)", "documents": "\(documents)"])
        try await RankingSave.restore(index, logger: logger)
        let traces = NoticeTraces()
        let sync = IndexSync(index: MeasuredSearchIndex(index, traces: traces), feed: posts.feed) { applied, head in
            logger.warning("the posts database was reset or restored; rebuilding the index", metadata: ["applied": "\(applied)", "head": "\(head)"])
        }
        let subscriber = try EventSubscriber(
            endpoints: eventsEndpoints, topic: ChangeNotice.topic(of: PostsMethod.service), context: context, logger: logger
        ) { _, body in
            if let notice = ChangeNotice(body: body) {
                traces.heard(notice)
                sync.heard(head: notice.head)
            }
        }
        defer { subscriber.close() }
        let router = SearchRouter(
            search: SearchInteractor(engine: index), index: index, sync: sync, maxReplyBytes: maxReplyBytes,
            logger: logger)
        let mdpWorker = MajordomoWorker(
            endpoints: endpoints, service: SearchMethod.service, configuration: configuration,
            context: context, logger: logger)
        logger.info(
            "search-service starting",
            metadata: ["gateway": "\(endpoints.joined(separator: ","))", "events": "\(eventsEndpoints.joined(separator: ","))"])
        // First in, last out: the span exporter sends the last spans.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = tracing.map { [.init(service: $0)] } ?? []
        if let metrics { services += [.init(service: metrics), .init(service: IndexGauges(sync: sync))] }
        let handler = BodyHandler(router.handle(frame:), refusing: JSONRPC.wrongFrameCount).worker
        services += [
            .init(service: RankingSave(index: index, logger: logger)),
            .init(service: RankingLoad(index: index, logger: logger), successTerminationBehavior: .ignore),
            .init(service: AfterFirstCatchUp(sync: sync, index: index, then: WorkerService(worker: mdpWorker, handler: handler), logger: logger)),
            .init(service: SyncService(sync: sync, interval: interval, logger: logger)),
        ]
        let group = ServiceGroup(
            configuration: .init(
                services: services,
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger
            ))
        try await group.run()
    }

    /// `--snapshot-to`: the index `--index-dir` names, else the slot of the
    /// data directory that has applied the most, copied (`IndexExport`).
    private func snapshot(to target: String, _ settings: Settings) async throws {
        let slots = settings.dataDirectory + "/search"
        let asked = indexDir ?? settings.value("POSTS_SEARCH_INDEX_DIR")
        do {
            guard asked != "memory" else { throw IndexDirectoryError.noIndex("memory (an index in memory lives and dies with its process)") }
            let source = asked ?? IndexDirectory.furthest(under: slots).map { ($0.path as NSString).deletingLastPathComponent } ?? slots
            print(try await IndexExport.export(from: source, to: target), terminator: "")
        } catch let error as IndexDirectoryError {
            StandardError.write("search-service: \(error)\n")
            throw ExitCode.failure
        }
    }

    /// The index where `--index-dir` (POSTS_SEARCH_INDEX_DIR) says, or in
    /// a free slot of the data directory, said in the log.
    private func openIndex(_ settings: Settings, logger: Logger) throws -> SQLiteSearchIndex {
        let asked = indexDir ?? settings.value("POSTS_SEARCH_INDEX_DIR")
        if asked == "memory" {
            logger.info("index in memory: built from the first change")
            return try SQLiteSearchIndex()
        }
        let directory: IndexDirectory
        do {
            directory =
                try asked.map { path throws(IndexDirectoryError) in try IndexDirectory(claiming: path) }
                ?? IndexDirectory(slotUnder: settings.dataDirectory + "/search")
        } catch {
            StandardError.write("search-service: \(error)\n")
            throw ExitCode.failure
        }
        logger.info("index kept on disk", metadata: ["directory": "\(directory.path)"])
        // A new slot starts from a copy of the index beside it that has
        // applied the most, and pulls only what came after it.
        if !FileManager.default.fileExists(atPath: directory.indexPath), let sibling = directory.furthestSibling() {
            let started = ContinuousClock.now
            do {
                let applied = try IndexSnapshot.copy(from: sibling.path, to: directory.indexPath)
                // With its saved ranking postings: the copy names them if they were current when it was taken.
                let postings = (sibling.path as NSString).deletingLastPathComponent + "/" + IndexDirectory.postingsFile
                if FileManager.default.fileExists(atPath: postings) {
                    try? FileManager.default.copyItem(atPath: postings, toPath: directory.postingsPath)
                }
                logger.info(
                    "index copied", metadata: ["from": "\(sibling.path)", "applied": "\(applied)", "seconds": "\(started.duration(to: .now))"])
            } catch {
                logger.warning("index not copied; building it from the feed", metadata: ["error": "\(error)"])
            }
        }
        return try SQLiteSearchIndex(path: directory.indexPath, exclusive: true, postingsPath: directory.postingsPath)
    }
}

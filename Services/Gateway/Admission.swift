import Logging
import Majordomo
import ServiceLifecycle
import ServiceSupport
import Synchronization
import SystemSupport
import UnixSignals
import ZeroMQ

/// Who may connect: the ZAP handler's decisions, by the allow-list. A
/// refused key is logged once (its fingerprint and address), however often
/// it tries, until the allow-list is read again.
final class Admission: Sendable {
    let allowList: AllowList
    private let logger: Logger
    private let refusedKeys = Mutex<Set<String>>([])
    /// Beyond this many distinct refused keys, refusals are rate limited
    /// instead of remembered: the set must not grow without bound.
    static let rememberedLimit = 10_000
    private let limiter = LogLimiter()

    init(allowList: AllowList, logger: Logger) {
        self.allowList = allowList
        self.logger = logger
    }

    func decide(_ request: ZAPHandler.Request) -> ZAPHandler.Decision {
        guard request.mechanism == "CURVE", let key = request.publicKey else {
            return .deny(reason: "CURVE is required")
        }
        if allowList.contains(key) { return .allow }
        let firstTime = refusedKeys.withLock { keys -> Bool? in
            keys.count < Self.rememberedLimit ? keys.insert(key).inserted : nil
        }
        let metadata: Logger.Metadata = [
            "fingerprint": "\(Curve.fingerprint(key))", "address": "\(request.address)",
            "allowList": "\(allowList.directory)",
        ]
        switch firstTime {
        case true?:
            logger.warning("refused a peer: its key is not on the allow-list", metadata: metadata)
        case nil where limiter.admit("refused").log:
            logger.warning(
                "refused a peer: its key is not on the allow-list (more refused keys than are remembered; rate limited)", metadata: metadata)
        default:
            break
        }
        return .deny(reason: "key not on the allow-list")
    }

    /// Reads the allow-list again; a refused key is logged again if refused again.
    func reload() {
        do {
            let reading = try allowList.reload()
            refusedKeys.withLock { $0.removeAll() }
            logger.notice("allow-list read again", metadata: ["keys": "\(reading.keys.count)", "directory": "\(allowList.directory)"])
            for problem in reading.problems { logger.warning("allow-list: \(problem)") }
        } catch {
            logger.error("allow-list not read again; the keys it had stay", metadata: ["error": "\(error)"])
        }
    }
}

import Foundation
import LocalPlatform
import Logging
import ServiceLifecycle

/// Loads the index's ranking postings beside the catch-up (which goes on
/// meanwhile), from the documents not in those restored at the start
/// (`RankingSave`; none to read when they were): until it is done, the
/// worker does not register (`AfterFirstCatchUp`). Says so in the log.
struct RankingLoad: Service {
    let index: SQLiteSearchIndex
    let logger: Logger

    func run() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let documents = try await index.loadRanking()
            let took = start.duration(to: clock.now).components
            let seconds = String(format: "%.2f", Double(took.seconds) + Double(took.attoseconds) / 1e18)
            logger.info("ranking loaded", metadata: ["documents": "\(documents)", "seconds": "\(seconds)"])
        } catch {
            logger.error("cannot load the ranking postings", metadata: ["error": "\(error)"])
            throw error
        }
    }
}

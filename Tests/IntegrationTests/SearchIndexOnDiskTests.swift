import Foundation
import TestSupport
import Testing
import Wire
import ZeroMQ

/// A search worker's index on disk: kept in an owner-only directory of its
/// own, taken up again where it left off, never shared by two processes.
@Suite("Search index on disk", .serialized, .timeLimit(.minutes(5)))
struct SearchIndexOnDiskTests {
    /// The directory a worker's log says it keeps its index in.
    private func indexDirectory(in log: String) -> String? {
        guard let line = log.split(separator: "\n").last(where: { $0.contains("index kept on disk") }),
            let range = line.range(of: "directory=")
        else { return nil }
        return String(line[range.upperBound...].prefix { $0 != " " })
    }

    /// The first line of `log` that says `text`; empty when none does.
    private func line(_ text: String, in log: String) -> String {
        log.split(separator: "\n").first { $0.contains(text) }.map(String.init) ?? ""
    }

    private func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    /// Starts the posts system and a search worker (`search-1`), imports
    /// `count` posts (`title N`, content `words words`), and waits until a
    /// search for `words` finds them all; answers a client of the gateway
    /// and the worker's pid.
    private func withSearchWorker(
        _ harness: ProcessHarness, _ context: Context, holding count: Int, titled title: String, words: String
    ) async throws -> (client: GatewayClient, worker: Int32) {
        try await harness.startPostsSystem(context: context)
        let worker = try await harness.startSearchService("search-1", context: context)
        let lines = (0..<count).map { #"{"title":"\#(title) \#($0)","content":"\#(words) words"}"# }.joined(separator: "\n")
        #expect(try await harness.posts(["import", "-"], input: lines).status == 0)
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context)
        #expect(await eventually(within: .seconds(20)) { (try? await search(client, words).total) == count })
        return (client, worker)
    }

    @Test func test_aWorkerStartedAgain_goesOnFromItsIndexOnDisk_applyingOnlyWhatChanged() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        let client = try await withSearchWorker(harness, context, holding: 400, titled: "Kept", words: "lasting").client

        let directory = try #require(indexDirectory(in: harness.log("search-1")), "\(harness.log("search-1"))")
        #expect(directory == harness.directory + "/search/1", "the first free slot of the data directory")
        #expect(try mode(directory) == 0o700 && mode(directory + "/index.sqlite") == 0o600, "owner-only")
        #expect(await harness.terminate("search-1") == 0)
        // Stopped, it saved its ranking postings beside the index, owner-only.
        #expect(harness.log("search-1").contains("ranking postings saved"), "\(harness.log("search-1"))")
        #expect(try mode(directory + "/ranking.postings") == 0o600)

        for index in 1...3 { #expect(try await harness.posts(["create", "--title", "Later \(index)", "--content", "lasting"]).status == 0) }
        _ = try await harness.startSearchService("search-2", context: context)
        let log = harness.log("search-2")
        #expect(indexDirectory(in: log) == directory, "the free slot again, with its index")
        let opened = line("index opened", in: log)
        #expect(opened.contains("applied=400 documents=400"), "it goes on from sequence 400, not 0: \(log)")
        #expect(await eventually(within: .seconds(20)) { (try? await search(client, "lasting").total) == 403 }, "and applies what changed meanwhile")
        // Its ranking postings are taken up from that file before the catch-up, so no document is read back.
        #expect(log.contains("ranking restored from saved postings"), "\(log)")
        #expect(await eventually(within: .seconds(20)) { harness.log("search-2").contains("ranking loaded") })
        let loaded = line("ranking loaded", in: harness.log("search-2"))
        #expect(loaded.contains("documents=0 "), "\(loaded)")

        // Killed, it saved nothing after the 3 changes: the next start takes up the file saved before, and reads those 3.
        await harness.kill("search-2")
        // Gone from the gateway first (its heartbeats stop), so that the next one's sessions are counted as its own.
        #expect(await eventually(within: .seconds(20)) { (try? await client.workers(of: "search")) == 0 })
        _ = try await harness.startSearchService("search-3", context: context)
        #expect(harness.log("search-3").contains("ranking restored from saved postings removedSince=0"), "\(harness.log("search-3"))")
        #expect(await eventually(within: .seconds(20)) { harness.log("search-3").contains("ranking loaded") })
        #expect(line("ranking loaded", in: harness.log("search-3")).contains("documents=3 "), "\(harness.log("search-3"))")
        #expect(await eventually(within: .seconds(20)) { (try? await search(client, "later").total) == 3 })
    }

    @Test func test_workersTakeASlotEach_aDirectoryInUseIsRefused_andMemoryIsAChoice() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startPostsSystem(context: context)
        for index in 1...2 { _ = try await harness.startSearchService("search-\(index)", context: context) }
        let directories = (1...2).map { indexDirectory(in: harness.log("search-\($0)")) }
        #expect(Set(directories) == [harness.directory + "/search/1", harness.directory + "/search/2"], "\(directories)")

        let refused = try await harness.run(
            "search-service", ["--index-dir", harness.directory + "/search/1", "--sync-interval", "250ms"], limit: .seconds(10))
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("\(harness.directory)/search/1 is in use by another search-service"), "\(refused.stderr)")

        let open = harness.directory + "/shared"
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        let loose = try await harness.run("search-service", ["--index-dir", open], limit: .seconds(10))
        #expect(loose.status == 1 && loose.stderr.contains("group or others may open it (mode 755)"), "\(loose.stderr)")
        #expect(try mode(open) == 0o755, "left as it was")

        _ = try await harness.startSearchService("search-memory", ["--index-dir", "memory"], context: context)
        #expect(harness.log("search-memory").contains("index in memory"))
        #expect(!FileManager.default.fileExists(atPath: harness.directory + "/search/3"), "memory takes no slot")
    }

    @Test func test_aNewWorker_startsFromACopyOfTheIndexBesideIt_andPullsOnlyWhatCameAfter() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        let (client, first) = try await withSearchWorker(harness, context, holding: 400, titled: "Copied", words: "shared")

        let second = try await harness.startSearchService("search-2", context: context)
        let log = harness.log("search-2")
        let copied = line("index copied", in: log)
        #expect(copied.contains("from=\(harness.directory)/search/1/index.sqlite") && copied.contains("applied=400"), "\(log)")
        let opened = line("index opened", in: log)
        #expect(opened.contains("applied=400 documents=400"), "\(log)")
        #expect(try mode(harness.directory + "/search/2/index.sqlite") == 0o600)

        // Both go on from there, each on its own file.
        #expect(try await harness.posts(["create", "--title", "After the copy", "--content", "shared"]).status == 0)
        #expect(
            try await everyWorkerFinds(client, "shared", 401, workers: [first, second]), "both workers find the post made after the copy")
    }

    @Test func test_aSnapshotTakenWhileAWorkerRuns_startsAWorkerElsewhere_thatPullsOnlyWhatCameAfter() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        let (client, first) = try await withSearchWorker(harness, context, holding: 400, titled: "Moved", words: "portable")

        // Taken from the data directory's slot while its worker runs (which has saved no postings: they are built).
        let target = harness.directory + "/elsewhere/snapshot"
        let taken = try await harness.run("search-service", ["--snapshot-to", target])
        #expect(taken.status == 0, "\(taken.stderr)")
        #expect(taken.stdout.contains("at sequence 400, 400 documents") && taken.stdout.contains("built from its 400 documents"), "\(taken.stdout)")
        #expect(try mode(target) == 0o700 && mode(target + "/index.sqlite") == 0o600 && mode(target + "/ranking.postings") == 0o600)
        let again = try await harness.run("search-service", ["--snapshot-to", target])
        #expect(again.status == 1 && again.stderr.contains("\(target): it exists and is not empty"), "\(again.stderr)")
        let none = try await harness.run(
            "search-service", ["--snapshot-to", harness.directory + "/other", "--index-dir", harness.directory + "/elsewhere"])
        #expect(none.status == 1 && none.stderr.contains("no search index in \(harness.directory)/elsewhere"), "\(none.stderr)")

        // A worker started on it ranks at once, and pulls only the post made after it.
        #expect(try await harness.posts(["create", "--title", "After the snapshot", "--content", "portable"]).status == 0)
        let second = try await harness.startSearchService("search-2", ["--index-dir", target], context: context)
        let log = harness.log("search-2")
        #expect(line("index opened", in: log).contains("applied=400 documents=400") && log.contains("ranking restored"), "\(log)")
        #expect(try await everyWorkerFinds(client, "portable", 401, workers: [first, second]))
    }
}

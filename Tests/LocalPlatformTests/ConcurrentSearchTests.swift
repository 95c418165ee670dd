import Domain
import Foundation
@testable import LocalPlatform
@testable import Search
import Synchronization
import TestSupport
import TestTraits
import Testing

/// A search worker's index ranks on every core: searches read together,
/// and a page of changes is applied with none of them reading.
@Suite("Searches at once", .ownThread, .timeLimit(.minutes(5)))
struct ConcurrentSearchTests {
    /// Pages of posts that all hold one word, applied while three searches
    /// for it run over and over: each answer counts whole pages only, as
    /// many posts as the sequence it says it reflects, never fewer than the
    /// answer before it. Pages of a catch-up's size are ranked on a thread
    /// of their own while the next is written (`rankedAsideFrom`); so are
    /// these, and the rule holds for them too.
    @Test(arguments: [40, SQLiteSearchIndex.rankedAsideFrom])
    func test_searchesWhilePagesApply_eachSeesWholePages_atTheSequenceItNames(size: Int) async throws {
        try await withDatabase { path in
            let index = try SQLiteSearchIndex(path: path, exclusive: true)
            let pages = size < SQLiteSearchIndex.rankedAsideFrom ? 20 : 6
            let done = Flag()
            let answering = Count()
            let searchers = (0..<3).map { _ in
                Task { () async throws -> (answers: Int, problems: [String]) in
                    var (answers, last, problems) = (0, 0, [String]())
                    while !done.isSet {
                        let found = try await index.search("alpha", limit: 10, offset: 0)
                        if found.total % size != 0 { problems.append("\(found.total) posts: part of a page") }
                        if Int64(found.total) != found.sequence { problems.append("\(found.total) posts at sequence \(found.sequence)") }
                        if found.total < last { problems.append("\(found.total) posts after \(last)") }
                        (answers, last) = (answers + 1, found.total)
                        if answers == 1 { answering.add() }
                        try await Task.sleep(for: .milliseconds(1))  // a turn for the other tests
                    }
                    return (answers, problems)
                }
            }
            // The pages come once every search has answered (on a busy machine they could all be in before).
            #expect(await eventually(within: .seconds(60)) { answering.value == 3 }, "the searches never answered")
            for page in 0..<pages {
                let changes = (1...size).map { offset in
                    let post = Post(title: "Post \(page * size + offset)", content: "alpha beta gamma \(page)")
                    return PostChange(sequence: Int64(page * size + offset), uid: post.uid, kind: .upsert(post))
                }
                try await index.apply(changes, position: IndexPosition(applied: Int64((page + 1) * size), database: nil))
            }
            done.set()
            for searcher in searchers {
                let (_, problems) = try await searcher.value
                #expect(problems.isEmpty, "\(problems.prefix(5))")
            }
            let last = try await index.search("alpha", limit: 10, offset: 0)
            #expect(last.total == pages * size && last.sequence == Int64(pages * size))
        }
    }

    /// The gate, closed on one thread, is opened on another (a page ranked
    /// aside opens it when ranked); a search that comes meanwhile waits
    /// for it, and so does the next page's close. When it opens, the
    /// search that waited passes before the next page closes it again: in
    /// a catch-up the next page is most often waiting by then, and the
    /// search would otherwise wait until the catch-up ends.
    @Test func test_theGateClosedOnOneThread_opensOnAnother_andSearchesWaitForIt() async throws {
        let gate = SearchGate()
        let order = Mutex<[String]>([])
        let passed = try await onOwnThread {
            gate.closeToSearches()
            let (searched, closedAgain) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
            Thread {
                gate.passing { order.withLock { $0.append("search") } }
                searched.signal()
            }.start()
            Thread {
                gate.closeToSearches()
                order.withLock { $0.append("next page") }
                gate.openToSearches()
                closedAgain.signal()
            }.start()
            // Both wait (on a thread of its own: a bounded wait for a loaded machine), and neither got in.
            let deadline = Date().addingTimeInterval(30)
            while gate.waiters != (1, 1) && Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
            order.withLock { $0.append("both waited: \(gate.waiters == (1, 1))") }
            Thread {
                order.withLock { $0.append("ranked") }
                gate.openToSearches()
            }.start()
            return searched.wait(timeout: .now() + 10) == .success && closedAgain.wait(timeout: .now() + 10) == .success
        }
        #expect(passed)
        let seen = order.withLock { $0 }
        #expect(seen == ["both waited: true", "ranked", "search", "next page"])
    }

    /// Readers hold the lock together; a writer waits until none does.
    @Test func test_readersHoldTheLockTogether_andAWriterWaitsForThem() async throws {
        let lock = ReadWriteLock()
        let order = Mutex<[String]>([])
        let (together, writerDone) = try await onOwnThread {
            let (secondIn, bothIn) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
            let second = Thread {
                lock.reading {
                    secondIn.signal()
                    bothIn.wait()
                }
            }
            var together = false
            lock.reading {
                second.start()
                // The second reader gets in while this one holds the lock.
                together = secondIn.wait(timeout: .now() + 10) == .success
                bothIn.signal()
            }
            let (writerStarted, writerDone) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
            lock.reading {
                Thread {
                    writerStarted.signal()
                    lock.writing { order.withLock { $0.append("writer") } }
                    writerDone.signal()
                }.start()
                writerStarted.wait()
                Thread.sleep(forTimeInterval: 0.1)  // on a thread of its own: time for the writer to get in, were it let
                order.withLock { $0.append("reader leaves") }
            }
            return (together, writerDone.wait(timeout: .now() + 10) == .success)
        }
        #expect(together, "a second reader waited for the first")
        #expect(writerDone)
        #expect(order.withLock { $0 } == ["reader leaves", "writer"])
    }

    private final class Count: Sendable {
        private let count = Atomic<Int>(0)
        var value: Int { count.load(ordering: .acquiring) }
        func add() { count.add(1, ordering: .releasing) }
    }

    private final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .acquiring) }
        func set() { value.store(true, ordering: .releasing) }
    }
}

import Domain
import Foundation
import RPCServer
import Synchronization
import TestSupport
import TestTraits
import Testing
import Wire

/// A page over the gateway's frame limit is asked for again, shorter
/// (`RPCCall.fitted`): it comes back whole and fitting, as full as the
/// limit allows, without reading the page over and over.
@Suite("Pages cut to fit the frame limit", .ownThread, .timeLimit(.minutes(5)))
struct FittedPageTests {
    struct Limit: Codable, Sendable { var limit: Int }
    struct Page: Codable, Sendable { var texts: [String] }
    static let page = RPCMethod<Limit, Page>("test.page", service: "test")
    static let frameLimit = 65_536

    /// The limits a page was read with.
    final class Reads: Sendable {
        let limits = Mutex<[Int]>([])
    }

    /// A router whose `test.page` serves the first `limit` of `texts`.
    private func router(texts: [String], reads: Reads) -> JSONRPCRouter {
        var router = JSONRPCRouter(service: "test", maxReplyBytes: Self.frameLimit)
        router.onReply(Self.page) { params, call in
            try await call.fitted(limit: params.limit) { limit in
                reads.limits.withLock { $0.append(limit) }
                let page = Array(texts.prefix(limit))
                return (Page(texts: page), page.count)
            }
        }
        return router
    }

    private func ask(_ router: JSONRPCRouter, limit: Int) async throws -> (page: Page, bytes: Int) {
        let reply = await router.handle(try JSONRPC.encodeRequest(id: .number(1), method: Self.page.name, params: Limit(limit: limit))).reply
        return (try JSONRPC.decodeResponse(reply, as: Page.self), reply.count)
    }

    @Test func test_postsWhoseTextGrowsSixfoldInJSON_comeInAPageThatFits_readTwice() async throws {
        // 3,000 control characters: 3 KB of text, 18 KB of JSON (\u0001 each).
        let texts = (0..<40).map { "post \($0) " + String(repeating: "\u{1}", count: 3000) }
        let reads = Reads()
        let (page, bytes) = try await ask(router(texts: texts, reads: reads), limit: 500)
        #expect(bytes <= Self.frameLimit, "the reply fits the frame limit")
        #expect(page.texts == Array(texts.prefix(page.texts.count)), "the first posts, whole and in order")
        #expect(page.texts.count == 3, "as many as fit: three of 18 KB in 64 KiB")
        #expect(reads.limits.withLock { $0 } == [500, 3], "read once in full, once cut to what fits")
    }

    @Test func test_entriesOfUnlikeSizes_stillEndFitting_eachReadAskingForHalfAsManyOrFewer() async throws {
        // One big entry first, then small ones: their share of the first read is too generous.
        let texts = [String(repeating: "\u{1}", count: 9000)] + (0..<200).map { "small \($0) " + String(repeating: "x", count: 300) }
        let reads = Reads()
        let (page, bytes) = try await ask(router(texts: texts, reads: reads), limit: 201)
        #expect(bytes <= Self.frameLimit)
        #expect(page.texts == Array(texts.prefix(page.texts.count)) && page.texts.count > 1)
        let limits = reads.limits.withLock { $0 }
        #expect(zip(limits, limits.dropFirst()).allSatisfy { $0 / 2 >= $1 }, "each read asks for half as many or fewer: \(limits)")
        #expect(limits.count <= 4, "no more reads than halving takes: \(limits)")
    }

    @Test func test_oneEntryOverTheLimit_isTheErrorThatSaysSo() async throws {
        let texts = [String(repeating: "\u{1}", count: 20_000)]
        let request = try JSONRPC.encodeRequest(id: .number(1), method: Self.page.name, params: Limit(limit: 10))
        let reply = await router(texts: texts, reads: Reads()).handle(request).reply
        #expect(throws: JSONRPCError.self) { try JSONRPC.decodeResponse(reply, as: Page.self) }
        #expect(String(decoding: reply, as: UTF8.self).contains("-32005"), "too large, the frame limit named")
    }
}

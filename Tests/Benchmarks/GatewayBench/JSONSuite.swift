import Domain
import Foundation
import Wire

/// #45's choice of one JSON stack, measured: each message the product reads
/// or writes, through our reader (the text checked, then read into the type
/// where it lies, with no tree: JSONReader) or our writer, beside
/// swift-foundation's `JSONDecoder` and `JSONEncoder` (the same types
/// FoundationEssentials has) decoding and encoding the same bytes into the
/// same Codable types. In one process, one after the other, in turns.
struct JSONSuite {
    let samples: Int

    /// A JSON-RPC request as Foundation decodes it: the envelope and typed params.
    struct Request<Params: Decodable>: Decodable {
        var jsonrpc: String
        var id: Int
        var method: String
        var params: Params
    }

    /// A JSON-RPC response as Foundation encodes it.
    struct Response<Result: Encodable>: Encodable {
        var jsonrpc = "2.0"
        var id: Int
        var result: Result
    }

    struct Case {
        let name: String
        let bytes: Int
        let ours: () throws -> Void
        let foundation: () throws -> Void
    }

    func run() throws -> String {
        let cases = try decodeCases() + encodeCases()
        var rows = [
            "JSON, one message at a time, in this process (median of \(samples) turns; each turn runs ours, then Foundation's, each for at least 20 ms).",
            "Command: `\(CommandLine.arguments.joined(separator: " "))`",
            "",
            "| message | bytes | ours, µs | Foundation, µs | Foundation / ours |",
            "|---|---|---|---|---|",
        ]
        for item in cases {
            var ours: [Double] = []
            var theirs: [Double] = []
            for _ in 0..<samples {
                ours.append(try Self.perCall(item.ours))
                theirs.append(try Self.perCall(item.foundation))
            }
            let (a, b) = (Self.median(ours), Self.median(theirs))
            rows.append(
                "| \(item.name) | \(item.bytes) | \(String(format: "%.2f", a)) | \(String(format: "%.2f", b)) | \(String(format: "%.2f×", b / a)) |")
        }
        return rows.joined(separator: "\n")
    }

    // MARK: the messages

    static func post(_ index: Int) -> Post {
        Post(
            title: "Post number \(index): a title of a usual length",
            content: String(repeating: "Some words of content, with \"quotes\" and a tab\tin them. ", count: 4),
            createDate: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)), updateDate: Date(timeIntervalSince1970: 1_800_000_000))
    }

    private func decodeCases() throws -> [Case] {
        let save = try JSONRPC.encodeRequest(
            id: .number(1), method: "posts.save", params: SaveParams(post: PostDTO(domain: Self.post(1))), meta: RequestMeta(timeoutMs: 10_000))
        let many = try JSONRPC.encodeRequest(
            id: .number(1), method: "posts.saveMany", params: SaveManyParams(posts: (0..<1000).map { PostDTO(domain: Self.post($0)) }),
            meta: RequestMeta(timeoutMs: 10_000))
        let query = try JSONRPC.encodeRequest(
            id: .number(1), method: "search.query", params: SearchParams(q: "zebra crossing", limit: 10, offset: 0),
            meta: RequestMeta(timeoutMs: 10_000))
        let notice = Data(
            ChangeNotice(
                service: "posts", head: 123_456,
                traceparent: "00-" + String(repeating: "a", count: 32) + "-" + String(repeating: "b", count: 16) + "-01"
            ).body)
        return [
            Self.decoding("posts.save request", save, SaveParams.self),
            Self.decoding("posts.saveMany request, 1,000 posts", many, SaveManyParams.self),
            Self.decoding("search.query request", query, SearchParams.self),
            Case(
                name: "change notice", bytes: notice.count,
                ours: { guard ChangeNotice(body: Array(notice)) != nil else { throw BenchError("notice not read") } },
                foundation: { _ = try JSONDecoder().decode(ChangeNotice.self, from: notice) }),
        ]
    }

    private static func decoding<Params: Decodable>(_ name: String, _ body: Data, _ type: Params.Type) -> Case {
        Case(
            name: name, bytes: body.count,
            ours: {
                guard case .success(let request) = JSONRPC.decodeRequest(body) else { throw BenchError("\(name) not read") }
                _ = try request.params(type)
            },
            foundation: { _ = try JSONDecoder().decode(Request<Params>.self, from: body) })
    }

    private func encodeCases() throws -> [Case] {
        let post = PostDTO(domain: Self.post(1))
        let page = PageResult(posts: (0..<500).map { PostDTO(domain: Self.post($0)) }, nextCursor: "cursor")
        let hits = SearchResultDTO(
            domain: SearchResults(
                hits: (0..<10).map {
                    SearchHit(
                        uid: UUID(), title: "Zebra crossing \($0)", snippet: "…a zebra crossing at dawn, where the stripes…",
                        highlights: [2..<7, 8..<16], score: 12.5)
                }, total: 1234, sequence: 99), pid: 42)
        return [
            Self.encoding("a post (posts.get reply)", post),
            Self.encoding("a page of 500 posts (posts.list reply)", page),
            Self.encoding("10 search hits (search.query reply)", hits),
        ]
    }

    private static func encoding<Result: Encodable>(_ name: String, _ result: Result) -> Case {
        let bytes = (try? JSONRPC.encodeResult(id: .number(1), result).count) ?? 0
        return Case(
            name: name, bytes: bytes,
            ours: { _ = try JSONRPC.encodeResult(id: .number(1), result) },
            foundation: { _ = try JSONEncoder().encode(Response(id: 1, result: result)) })
    }

    // MARK: timing

    /// Microseconds per call: calls repeated until 20 ms have passed.
    static func perCall(_ body: () throws -> Void) throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        var calls = 0
        var elapsed = Duration.zero
        repeat {
            for _ in 0..<8 { try body() }
            calls += 8
            elapsed = start.duration(to: clock.now)
        } while elapsed < .milliseconds(20)
        return Probe.seconds(elapsed) * 1e6 / Double(calls)
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
}

import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Wire

/// The real `posts-http` of a harness, and requests to it over real HTTP.
struct HTTPEdge {
    /// `http://127.0.0.1:PORT`
    let base: String

    /// One answer, as a client sees it.
    struct Answer {
        let status: Int
        let headers: HTTPHeaders
        let body: String

        var json: JSONValue? { try? JSONDecoder().decode(JSONValue.self, from: Data(body.utf8)) }
        func header(_ name: String) -> String? { headers.first(name: name) }
        /// A problem's `field`, for the checks of refusals.
        var field: String? { json?["field"]?.stringValue }
    }

    func request(
        _ method: HTTPMethod, _ path: String, headers: [(String, String)] = [], json: String? = nil,
        contentType: String = "application/json", timeout: TimeAmount = .seconds(30)
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let json {
            request.headers.add(name: "Content-Type", value: contentType)
            request.body = .bytes(ByteBuffer(string: json))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: timeout)
        let body = try await response.body.collect(upTo: 16 << 20)
        return Answer(status: Int(response.status.code), headers: response.headers, body: String(buffer: body))
    }
}

extension HTTPEdge {
    /// One Server-Sent Event.
    struct Event: Equatable {
        var id: String?
        var name: String?
        var data: String

        var json: JSONValue? { try? JSONDecoder().decode(JSONValue.self, from: Data(data.utf8)) }
    }

    /// An open event stream, read event by event (comments skipped).
    struct EventStream {
        let status: Int
        let headers: HTTPHeaders
        private var chunks: HTTPClientResponse.Body.AsyncIterator
        private var text = ""

        init(_ response: HTTPClientResponse) {
            (status, headers, chunks) = (Int(response.status.code), response.headers, response.body.makeAsyncIterator())
        }

        /// The next event; nil when the stream ends. Comments (heartbeats)
        /// are counted in `comments`.
        mutating func next(comments: inout Int) async throws -> Event? {
            while true {
                if let end = text.range(of: "\n\n") {
                    let block = text[..<end.lowerBound]
                    text.removeSubrange(..<end.upperBound)
                    var event = Event(data: "")
                    var isEvent = false
                    for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                        if line.hasPrefix(":") { continue }
                        isEvent = true
                        if line.hasPrefix("id: ") { event.id = String(line.dropFirst(4)) }
                        if line.hasPrefix("event: ") { event.name = String(line.dropFirst(7)) }
                        if line.hasPrefix("data: ") { event.data += String(line.dropFirst(6)) }
                    }
                    if isEvent { return event }
                    comments += 1
                    continue
                }
                guard let chunk = try await chunks.next() else { return nil }
                text += String(buffer: chunk)
            }
        }

        mutating func next() async throws -> Event? {
            var comments = 0
            return try await next(comments: &comments)
        }
    }

    /// Opens `GET path` as an event stream; it lasts at most `limit`.
    func events(_ path: String, headers: [(String, String)] = [], limit: TimeAmount = .seconds(60)) async throws -> EventStream {
        var request = HTTPClientRequest(url: base + path)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        return EventStream(try await HTTPClient.shared.execute(request, timeout: limit))
    }
}

extension ProcessHarness {
    /// Starts `posts-http` on a free loopback port, against `gateway` (this
    /// harness's gateway unless given), and waits until it listens.
    /// `listen` and `wrapper` put it elsewhere (`ip netns exec`).
    func startHTTPEdge(
        _ name: String = "posts-http", _ arguments: [String] = [], gateway: String? = nil, environment: [String: String] = [:],
        listen: String = "127.0.0.1:0", wrapper: [String] = []
    ) async throws -> HTTPEdge {
        try start(
            name, "posts-http", ["--listen", listen, "--gateway", gateway ?? gatewayEndpoint] + arguments, environment: environment,
            wrapper: wrapper)
        let url = await firstValue(within: .seconds(20), every: .milliseconds(20)) { () -> String? in
            guard let line = log(name).split(separator: "\n").first(where: { $0.contains("listening") && $0.contains("url=") }) else { return nil }
            return line.components(separatedBy: "url=").last.map { String($0.prefix { !$0.isWhitespace }) }
        }
        guard let url else { throw HarnessError("posts-http did not start listening:\n\(log(name))") }
        return HTTPEdge(base: url)
    }
}

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

extension ProcessHarness {
    /// Starts `posts-http` on a free loopback port, against this harness's
    /// gateway, and waits until it listens.
    func startHTTPEdge(_ name: String = "posts-http", _ arguments: [String] = [], environment: [String: String] = [:]) async throws -> HTTPEdge {
        try start(name, "posts-http", ["--listen", "127.0.0.1:0", "--gateway", gatewayEndpoint] + arguments, environment: environment)
        let url = await firstValue(within: .seconds(20), every: .milliseconds(20)) { () -> String? in
            guard let line = log(name).split(separator: "\n").first(where: { $0.contains("listening") && $0.contains("url=") }) else { return nil }
            return line.components(separatedBy: "url=").last.map { String($0.prefix { !$0.isWhitespace }) }
        }
        guard let url else { throw HarnessError("posts-http did not start listening:\n\(log(name))") }
        return HTTPEdge(base: url)
    }
}

import ArgumentParser

/// Where the edge listens: HOST:PORT, `[IPv6]:PORT` for an IPv6 address.
struct ListenAddress: CustomStringConvertible {
    static let fallback = "127.0.0.1:8080"
    let host: String
    let port: Int

    init(host: String, port: Int) { (self.host, self.port) = (host, port) }

    init(_ text: String) throws {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw ValidationError("--listen must be HOST:PORT with a port from 0 to 65535 (got '\(text)')")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw ValidationError("--listen names no host (got '\(text)'); 127.0.0.1:8080 listens on loopback") }
        (self.host, self.port) = (host, port)
    }

    /// Only this machine can reach it.
    var isLoopback: Bool { host == "localhost" || host == "::1" || host.hasPrefix("127.") }

    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

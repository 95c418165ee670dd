import Foundation
import PostgresPlatform
import TestSupport

/// A throwaway PostgreSQL cluster for this test process: initdb in a
/// temporary directory, a free port on 127.0.0.1, run as the `postgres`
/// user when the tests run as root (PostgreSQL refuses root). A watcher
/// process stops it and removes the directory when this process ends,
/// however it ends. Each caller gets a database of its own.
actor PostgresCluster {
    static let shared = PostgresCluster()

    private var started: (port: Int, directory: String)?
    /// The address it listens on, and a command prefix to run it with
    /// (`ip netns exec HOST`, to serve another host); `password` is the
    /// `posts` user's for connections from other addresses.
    let address: String
    let wrapper: [String]
    let password: String?
    /// Serve TLS with a certificate for `address`, signed by a CA of its own
    /// (`caFile` once started).
    let tls: Bool
    private(set) var caFile: String?

    init(address: String = "127.0.0.1", wrapper: [String] = [], password: String? = nil, tls: Bool = false) {
        (self.address, self.wrapper, self.password, self.tls) = (address, wrapper, password, tls)
    }

    /// The server's binaries (the newest installed version), or nil.
    static let binaries: String? = {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        return versions.last.map { "\(root)/\($0)/bin" }.flatMap { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") ? $0 : nil }
    }()

    /// A new, empty database on the cluster (started on first use).
    func newDatabase() async throws -> DatabaseURL {
        let port = try await start()
        let name = "t_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
        try await psql(port, "CREATE DATABASE \(name)")
        let query = caFile.map { "?sslmode=verify-full&sslrootcert=\($0)" } ?? ""
        return try DatabaseURL("postgres://posts\(password.map { ":" + $0 } ?? "")@\(address):\(port)/\(name)\(query)")
    }

    /// The one start, which every concurrent caller awaits (the actor lets
    /// others in while it waits on initdb).
    private var starting: Task<Int, any Error>?

    /// The port of the running cluster, started on first use.
    func start() async throws -> Int {
        if let starting { return try await starting.value }
        let task = Task { try await self.startOnce() }
        starting = task
        return try await task.value
    }

    private func startOnce() async throws -> Int {
        guard let binaries = Self.binaries else { throw HarnessError("no PostgreSQL server installed (deploy/setup --test installs postgresql)") }
        let directory = try makeTemporaryDirectory("pg")
        if getuid() == 0, let user = getpwnam("postgres") { chown(directory, user.pointee.pw_uid, user.pointee.pw_gid) }
        let port = address == "127.0.0.1" ? try freeTCPPort() : 5432
        // Stops the server and removes everything once this process is gone.
        _ = try Spawned(
            "/bin/sh",
            [
                "-c",
                """
                while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done
                \(Self.asServer)\(binaries)/pg_ctl -D \(directory)/data stop -m immediate >/dev/null 2>&1
                rm -rf \(directory)
                """,
            ], environment: ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin"], output: "/dev/null", errors: "/dev/null")
        try await run(["\(binaries)/initdb", "-D", "\(directory)/data", "-U", "posts", "--auth=trust", "-E", "UTF8", "--no-sync"], asServer: true)
        if password != nil {
            // Other hosts sign in with the password; the local socket and loopback stay trusted.
            let hba = "\(directory)/data/pg_hba.conf"
            let line = "host all all 0.0.0.0/0 scram-sha-256\n"
            if let handle = FileHandle(forWritingAtPath: hba) { handle.seekToEndOfFile(); handle.write(Data(line.utf8)); try handle.close() }
        }
        if tls {
            caFile = try await Self.makeCertificates(in: directory, for: address)
            if getuid() == 0, let user = getpwnam("postgres") {
                for file in ["server.crt", "server.key"] { chown("\(directory)/\(file)", user.pointee.pw_uid, user.pointee.pw_gid) }
            }
        }
        started = (port, directory)
        try await restart()
        if let password { try await psql(port, "ALTER USER posts PASSWORD '\(password)'") }
        return port
    }

    /// Stops the server as an outage would, and starts it again.
    func stop() async throws {
        guard let started, let binaries = Self.binaries else { return }
        try await run(["\(binaries)/pg_ctl", "-D", "\(started.directory)/data", "-w", "stop", "-m", "fast"], asServer: true)
    }

    func restart() async throws {
        guard let started, let binaries = Self.binaries else { return }
        try await run(
            [
                "\(binaries)/pg_ctl", "-D", "\(started.directory)/data", "-l", "\(started.directory)/server.log", "-w", "-t", "60",
                "-o",
                "-p \(started.port) -k \(started.directory) -c listen_addresses=\(address) -c fsync=off -c max_connections=200"
                    + (tls ? " -c ssl=on -c ssl_cert_file=\(started.directory)/server.crt -c ssl_key_file=\(started.directory)/server.key" : ""),
                "start",
            ], asServer: true)
    }

    /// Through the cluster's own socket, where its owner is trusted.
    private func psql(_ port: Int, _ statement: String) async throws {
        guard let started else { throw HarnessError("the cluster is not running") }
        try await run(
            [
                "/usr/bin/psql", "-h", started.directory, "-p", "\(port)", "-U", "posts", "-d", "postgres", "-v", "ON_ERROR_STOP=1",
                "-c", statement,
            ], asServer: false)
    }

    /// One value `sql` selects in `database`, as psql prints it (`-At`).
    func value(_ sql: String, in database: String) async throws -> String {
        guard let started else { throw HarnessError("the cluster is not running") }
        return try await Self.output(
            wrapper + [
                "/usr/bin/psql", "-h", started.directory, "-p", "\(started.port)", "-U", "posts", "-d", database, "-At", "-v", "ON_ERROR_STOP=1",
                "-c", sql,
            ])
    }

    private func run(_ command: [String], asServer: Bool) async throws {
        try await Self.run(wrapper + (asServer && getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []) + command, asServer: false)
    }

    /// A CA, and a server certificate it signs for `address` (an IP): the
    /// CA's file, for `sslrootcert`.
    static func makeCertificates(in directory: String, for address: String) async throws -> String {
        let san = "\(directory)/san.ext"
        try "subjectAltName=IP:\(address)\n".write(toFile: san, atomically: true, encoding: .utf8)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try await run(
            ["/usr/bin/openssl", "req", "-x509"] + ec + [
                "-keyout", "\(directory)/ca.key", "-out", "\(directory)/ca.pem",
                "-days", "2", "-subj", "/CN=posts test CA",
            ], asServer: false)
        try await run(
            ["/usr/bin/openssl", "req"] + ec + [
                "-keyout", "\(directory)/server.key", "-out", "\(directory)/server.csr",
                "-subj", "/CN=\(address)",
            ], asServer: false)
        try await run(
            [
                "/usr/bin/openssl", "x509", "-req", "-in", "\(directory)/server.csr", "-CA", "\(directory)/ca.pem",
                "-CAkey", "\(directory)/ca.key", "-CAcreateserial", "-out", "\(directory)/server.crt", "-days", "2",
                "-extfile", san,
            ], asServer: false)
        chmod("\(directory)/server.key", 0o600)
        chmod("\(directory)/ca.pem", 0o644)
        return "\(directory)/ca.pem"
    }

    static var asServer: String { getuid() == 0 ? "/usr/sbin/runuser -u postgres -- " : "" }

    static func run(_ command: [String], asServer: Bool) async throws {
        _ = try await output((asServer && getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []) + command)
    }

    /// Runs `full` to completion; its output, trimmed.
    static func output(_ full: [String]) async throws -> String {
        let command = full
        return try await onOwnThread {
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("pg-\(UUID().uuidString.prefix(8)).log").path
            defer { try? FileManager.default.removeItem(atPath: log) }
            let process = try Spawned(
                full[0], Array(full.dropFirst()), environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"],
                directory: "/tmp", output: log, errors: log)
            guard let status = process.wait(within: .seconds(90)) else {
                process.killAndReap()
                throw HarnessError("\(command.joined(separator: " ")) did not finish")
            }
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            guard status == 0 else { throw HarnessError("\(command.joined(separator: " ")) exited \(status): \(output)") }
            return output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
}

extension DatabaseURL {
    /// The URL with its password, as an operator writes it in POSTS_DATABASE_URL.
    var withPassword: String {
        "postgres://\(user)\(password.map { ":" + $0 } ?? "")@\(host):\(port)/\(database)"
            + (tls == .disable ? "" : "?sslmode=\(tls.rawValue)" + (rootCertificate.map { "&sslrootcert=\($0)" } ?? ""))
    }
}

import Foundation
import TestSupport
import TestTraits
import Testing
@testable import ZeroMQ
#if canImport(Glibc)
import Glibc
#endif

@Suite("Unix-domain listener", .ownThread, .timeLimit(.minutes(5)))
struct UnixListenerTests {
    @Test func test_anAcceptedConnectionIsNonBlockingAndCloseOnExec_andNoneWaitingIsNone() async throws {
        let directory = try makeTemporaryDirectory("unix")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let endpoint = "ipc://\(directory)/listener.ipc"
        let listener = try UnixListener(endpoint: endpoint)
        defer { listener.close() }
        let client = try #require(UnixListener.connect(to: endpoint))
        defer { _ = Glibc.close(client) }
        guard case .connection(let peer) = listener.accept() else {
            Issue.record("the waiting connection was not accepted")
            return
        }
        defer { _ = Glibc.close(peer) }
        #expect(fcntl(peer, F_GETFL) & O_NONBLOCK != 0, "a read never blocks the router's thread")
        #expect(fcntl(peer, F_GETFD) & FD_CLOEXEC != 0, "a child process does not inherit the connection")
        guard case .none = listener.accept() else {
            Issue.record("nothing waits, so none is accepted, at once")
            return
        }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SystemSupport
import ZeroMQ
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Exits the process when the process that started it dies, if
/// `POSTS_EXIT_WITH_PARENT` is set. The integration tests set it, so a test
/// runner that crashes never leaves gateways and workers behind.
public enum ParentWatch {
    public static func startIfRequested(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard environment["POSTS_EXIT_WITH_PARENT"] == "1" else { return }
        let parent = getppid()
        startThread(named: "parent-watch") {
            while getppid() == parent { sleepThread(seconds: 0.25) }
            exit(0)
        }
    }
}

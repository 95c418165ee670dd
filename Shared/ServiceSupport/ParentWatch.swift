import Foundation

/// Exits the process when the process that started it dies, if
/// `POSTS_EXIT_WITH_PARENT` is set. The integration tests set it, so a test
/// runner that crashes never leaves gateways and workers behind.
public enum ParentWatch {
    public static func startIfRequested(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard environment["POSTS_EXIT_WITH_PARENT"] == "1" else { return }
        let parent = getppid()
        let thread = Thread {
            while getppid() == parent { Thread.sleep(forTimeInterval: 0.25) }
            exit(0)
        }
        thread.name = "parent-watch"
        thread.start()
    }
}

import SystemSupport

/// Starts a thread that owns a socket, named so `top -H` and `ps -L` show
/// what it is.
public func startSocketThread(named name: String, _ body: @escaping @Sendable () -> Void) {
    startThread(named: name, body)
}

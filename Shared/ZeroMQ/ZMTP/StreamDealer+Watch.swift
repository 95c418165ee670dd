/// A dealer's connection events and heartbeats: what a libzmq socket's
/// monitor and its ZMQ_HEARTBEAT_* options give a client.
extension StreamDealer {
    /// The connection events since the last call, oldest first: connected
    /// (bytes went out or came in), the handshake's outcome, disconnected.
    /// Empty unless made `watching`.
    public func takeEvents() -> [HandshakeWatch.Monitored] {
        guard let taken = events, !taken.isEmpty else { return [] }
        events = []
        return taken
    }

    /// Notes what a read, a write or a close showed of the connection: that
    /// it was made, how its handshake ended.
    func noteProgress(_ connection: ZMTPConnection) {
        if !made, connection.hasWritten || connection.lastInput != 0 {
            made = true
            events?.append(.connected)
        }
        if !settled, let outcome = connection.session.takeHandshakeOutcome() {
            settle(outcome)
            pingedAt = Ticks.now()
        }
    }

    func settle(_ outcome: HandshakeEvent) {
        settled = true
        handshake?(outcome)
        events?.append(.outcome(outcome))
    }

    /// Sends a PING when one is due, and closes the connection when the
    /// peer has sent nothing for the timeout since the first PING it has
    /// not answered (nil: closed); otherwise the ticks until it should look
    /// again.
    func beat(_ connection: ZMTPConnection) -> UInt64? {
        guard let (interval, timeout) = heartbeat else { return nil }
        let now = Ticks.now()
        if let since = unansweredSince, connection.lastInput >= since { unansweredSince = nil }
        // This thread may have run late, with the answer waiting unread.
        if unansweredSince != nil, connection.hasUnreadInput { unansweredSince = nil }
        if let since = unansweredSince, now &- since >= timeout {
            let silence = Duration.nanoseconds(Int64(clamping: timeout))
            connection.drop(PeerProblem(.silent, "no answer to a heartbeat within \(silence)"), for: self)
            return nil
        }
        if now &- pingedAt >= interval {
            connection.session.ping()
            pingedAt = now
            if unansweredSince == nil { unansweredSince = now }
            flush()
            guard !connection.isClosed else { return nil }
        }
        let nextPing = interval &- (now &- pingedAt)
        guard let since = unansweredSince else { return nextPing }
        return min(nextPing, timeout &- (now &- since))
    }
}

/// Hands what a connection's session decoded to the connection's owner.
struct ConnectionSink<Receiver: ZMTPReceiver>: ZMTPSessionDelegate {
    let connection: ZMTPConnection
    let receiver: Receiver

    func ready(metadata: UnsafeRawBufferPointer) -> ZMTPSession.Admission { receiver.ready(connection, metadata: metadata) }
    func admits(clientKey: [UInt8]) -> Bool { receiver.admits(connection, clientKey: clientKey) }
    func message(_ frames: [Frame]) {
        connection.messagesIn &+= 1
        receiver.message(connection, frames)
    }
    func dropped(_ problem: PeerProblem) { receiver.report(connection, problem) }
}

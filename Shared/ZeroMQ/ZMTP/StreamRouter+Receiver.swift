/// What the router's connections read: routing ids at READY, messages,
/// problems, and closing.
extension StreamRouter: ZMTPReceiver {
    /// Gives the peer its routing id: its Identity, or one made here.
    func ready(_ peer: ZMTPConnection, metadata: UnsafeRawBufferPointer) -> ZMTPSession.Admission {
        let identity = ZMTP.property("Identity", in: metadata) ?? []
        var routingID: Frame
        if identity.isEmpty {
            repeat {
                nextNumber &+= 1
                routingID = Frame([0, 1] + withUnsafeBytes(of: nextNumber.bigEndian, Array.init))
            } while peers[routingID] != nil
        } else {
            // As libzmq: a routing id starting with a zero byte is reserved
            // for those made here, and one already connected is refused.
            routingID = Frame(identity)
            if identity[0] == 0 { return .refused("its routing id \(routingID) is reserved (it starts with a zero byte)") }
            if peers[routingID] != nil { return .refused("its routing id \(routingID) is already connected") }
        }
        greeting[ObjectIdentifier(peer)] = nil
        peers[routingID] = peer
        peer.prefix = routingID
        if roles[peer.listener].welcome != nil { welcomed.append(peer) }
        return .admitted(prefix: routingID)
    }

    /// Asks the listener's CURVE setup (the ZAP handler's decisions), with
    /// the peer's address for its log.
    func admits(_ peer: ZMTPConnection, clientKey: [UInt8]) -> Bool {
        guard let curve = curves[peer.listener] else { return false }
        let request = ZAPHandler.Request(
            address: StreamAddress.peerAddress(of: peer.descriptor) ?? "", mechanism: "CURVE", publicKey: Curve.encode(clientKey))
        return curve.admit(request) == .allow
    }

    func message(_ peer: ZMTPConnection, _ frames: [Frame]) { inbox.append(frames) }

    func report(_ peer: ZMTPConnection, _ problem: PeerProblem) {
        if problem.kind == .tooManyFrames { droppedMessages += 1 }
        problems.append(peer.prefix.map { PeerProblem(problem.kind, "\(problem.detail) (peer \($0))") } ?? problem)
    }

    func closed(_ peer: ZMTPConnection) {
        if peer.isHeldBack { heldBack -= 1 }
        if let routingID = peer.prefix, peers[routingID] === peer {
            peers[routingID] = nil
            if roles[peer.listener].reportsDeparture { departed.append(routingID) }
        }
        greeting[ObjectIdentifier(peer)] = nil
        connections[peer.key] = nil
    }
}

import CZeroMQ

/// The socket patterns this project uses.
public enum SocketType: Sendable, CustomStringConvertible {
    case request, reply, dealer, router, publish, subscribe, xpublish, xsubscribe, pair

    var rawValue: Int32 {
        switch self {
        case .request: ZMQ_REQ
        case .reply: ZMQ_REP
        case .dealer: ZMQ_DEALER
        case .router: ZMQ_ROUTER
        case .publish: ZMQ_PUB
        case .subscribe: ZMQ_SUB
        case .xpublish: ZMQ_XPUB
        case .xsubscribe: ZMQ_XSUB
        case .pair: ZMQ_PAIR
        }
    }

    public var description: String {
        switch self {
        case .request: "REQ"
        case .reply: "REP"
        case .dealer: "DEALER"
        case .router: "ROUTER"
        case .publish: "PUB"
        case .subscribe: "SUB"
        case .xpublish: "XPUB"
        case .xsubscribe: "XSUB"
        case .pair: "PAIR"
        }
    }
}

extension StreamRouter {
    /// What a listener's peers talk to: a ROUTER (the broker), or the two
    /// ends of an event bus, XSUB for publishers and XPUB for subscribers.
    /// Each peer gets a routing id, whatever the role.
    public struct Role: Sendable, Equatable {
        public let socketType: String
        /// The socket types that may connect.
        let peerTypes: Set<String>
        /// Peers may send subscriptions as commands (ZMTP 3.1 SUBSCRIBE/CANCEL).
        let subscriptionCommands: Bool
        /// A message sent to each peer once it is in (an XSUB's
        /// subscription to everything, so that a PUB sends it all).
        let welcome: [Frame]?
        /// Whether the owner hears of its peers leaving (`takeDeparted`).
        let reportsDeparture: Bool

        public static let router = Role(
            socketType: "ROUTER", peerTypes: ZMTP.routerPeers, subscriptionCommands: false,
            welcome: nil, reportsDeparture: false)
        public static let publishers = Role(
            socketType: "XSUB", peerTypes: ["PUB", "XPUB"], subscriptionCommands: false,
            welcome: [Frame([1])], reportsDeparture: false)
        public static let subscribers = Role(
            socketType: "XPUB", peerTypes: ["SUB", "XSUB"], subscriptionCommands: true,
            welcome: nil, reportsDeparture: true)

        public static func == (left: Role, right: Role) -> Bool { left.socketType == right.socketType }
    }
}

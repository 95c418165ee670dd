/// What a peer of our own ZMTP transport did wrong, or refused: a kind from
/// a fixed set (so a log can rate-limit each kind) and the details.
public struct PeerProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case refused = "connection refused"
        case oversizedFrame = "frame over the size limit; connection closed"
        case oversizedMessage = "message over the size limit; connection closed"
        case malformed = "malformed ZMTP; connection closed"
        case stalled = "message left unfinished; connection closed"
        case connectionLimit = "connection over the limit closed"
        case descriptors = "out of file descriptors; connection closed"
        case subscriberBehind = "events dropped for a subscriber that does not read"
        case tooManyFrames = "message of too many frames dropped"
        case peerError = "the peer closed the connection with an error"
        case borrowedRoutingID = "message under another connection's routing id dropped"
        case silent = "no answer to heartbeats; connection closed"
    }

    public let kind: Kind
    public let detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { "\(kind.rawValue): \(detail)" }
}

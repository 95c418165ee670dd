extension ZMTP {
    /// What one peer may send and have waiting, so that the memory a
    /// connection holds has a bound whatever the peer does
    /// (docs/OPERATIONS.md, "Bounds").
    public struct Limits: Sendable {
        /// A larger frame costs the peer its connection.
        public var maxFrameSize: Int
        /// A message whose frames together pass this costs the peer its
        /// connection: what a message still being received may hold.
        public var maxMessageSize: Int
        /// A message of more frames is dropped as it arrives (its frames past
        /// the limit are counted, not kept); the connection stays.
        public var maxFrames: Int
        /// How long a peer that connected may take to finish its
        /// handshake (libzmq's ZMQ_HANDSHAKE_IVL is 30 s too).
        public var handshakeTimeout: Duration
        /// How long a message may take to arrive whole once its first byte
        /// has: a peer that leaves a frame or a message half sent is closed,
        /// as one that never finishes its greeting is. Time while this end
        /// has stopped reading the peer does not count.
        public var messageTimeout: Duration
        /// Bytes waiting to be written to the peer past which this end stops
        /// reading it, so that a peer that does not read what it asked for
        /// is held back in its own socket buffer; reading starts again once
        /// half of them are written. What is already asked of the other
        /// side (replies to its requests in progress) still queues past it.
        public var maxOutput: Int
        /// Frames of the protocol on top (its headers): one that arrives
        /// with the same bytes is handed on shared, not copied.
        public var sharedFrames: SharedFrames

        /// Room beyond `maxFrameSize` for a message's other frames (routing
        /// ids, headers), when no `maxMessageSize` is given.
        public static let headerRoom = 64 << 10
        public static let defaultMaxOutput = 1 << 20
        public static let defaultMessageTimeout = Duration.seconds(30)

        public init(
            maxFrameSize: Int, maxFrames: Int, maxMessageSize: Int? = nil, handshakeTimeout: Duration = .seconds(30),
            messageTimeout: Duration = defaultMessageTimeout, maxOutput: Int = defaultMaxOutput, sharedFrames: SharedFrames = SharedFrames([])
        ) {
            self.maxFrameSize = maxFrameSize
            self.maxFrames = maxFrames
            self.maxMessageSize = maxMessageSize ?? maxFrameSize + Self.headerRoom
            self.handshakeTimeout = handshakeTimeout
            self.messageTimeout = messageTimeout
            self.maxOutput = maxOutput
            self.sharedFrames = sharedFrames
        }

        /// Why a frame of `size` bytes may not join a message that holds
        /// `held` bytes so far, if it may not: the one rule for a frame,
        /// whether it came in plaintext, boxed alone, or in a whole-message box.
        func problem(frame size: UInt64, after held: Int) -> PeerProblem? {
            guard size <= UInt64(maxFrameSize) else {
                return PeerProblem(.oversizedFrame, "a frame of \(size) bytes is over the limit of \(maxFrameSize)")
            }
            guard UInt64(held) + size <= UInt64(maxMessageSize) else {
                return PeerProblem(.oversizedMessage, "a message of more than \(held + Int(size)) bytes is over the limit of \(maxMessageSize)")
            }
            return nil
        }

        /// A message dropped for having `count` frames, more than `maxFrames`.
        func tooManyFrames(_ count: Int) -> PeerProblem {
            PeerProblem(.tooManyFrames, "a message of \(count) frames (at most \(maxFrames))")
        }
    }
}

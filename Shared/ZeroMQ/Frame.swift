import CZeroMQ
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// One frame of a multipart message, held in a libzmq message (`zmq_msg_t`).
///
/// A frame is an immutable value. Receiving writes straight into the frame's
/// `zmq_msg_t`; sending hands libzmq a `zmq_msg_copy` of it, which for
/// payloads over 33 bytes shares libzmq's reference-counted buffer rather
/// than copying bytes. So a broker forwards a request body it received
/// without ever copying it.
///
/// Thread rules: the storage is never written after it is made, except that
/// `zmq_msg_copy` marks a message as shared the first time it is copied;
/// that call is serialised by a lock, so frames are safe to share across
/// threads.
public struct Frame: @unchecked Sendable {
    final class Storage {
        /// The message itself, inside the object: one allocation per frame,
        /// not two. Reached only through `withMessage`, whose pointer does
        /// not outlive the call; the object never moves, so libzmq's inline
        /// data (payloads up to 33 bytes) stays where `zmq_msg_data` said.
        @exclusivity(unchecked) private var message = zmq_msg_t()
        /// Where the message's bytes are, and how many: asked of libzmq
        /// once (`seal`), not at every look. A gateway looked some forty
        /// times per request (routing ids hashed and compared, frames
        /// written out), two calls into libzmq each time.
        @exclusivity(unchecked) private(set) var bytes = UnsafeRawBufferPointer(start: nil, count: 0)
        private let copyLock = Mutex(())

        init() {
            zmq_msg_init(&message)
            seal()
        }

        /// A message holding a copy of `buffer`.
        init(copying buffer: UnsafeRawBufferPointer) {
            if zmq_msg_init_size(&message, buffer.count) != 0 {
                // Only fails when malloc fails; there is nothing sensible left to do.
                preconditionFailure("zmq_msg_init_size(\(buffer.count)) failed: out of memory")
            }
            if let base = buffer.baseAddress, buffer.count > 0 {
                zmq_msg_data(&message).copyMemory(from: base, byteCount: buffer.count)
            }
            seal()
        }

        /// Notes where the bytes are, once the message holds them (at once,
        /// or after a receive into it) and before the frame is shared. They
        /// stay put: a small message's bytes are inside `message`, inside
        /// this object, which never moves; a large one's are libzmq's, and
        /// `zmq_msg_copy` shares them without moving them.
        func seal() {
            bytes = withMessage { UnsafeRawBufferPointer(start: zmq_msg_data($0), count: zmq_msg_size($0)) }
        }

        deinit { zmq_msg_close(&message) }

        func withMessage<Result>(_ body: (UnsafeMutablePointer<zmq_msg_t>) throws -> Result) rethrows -> Result {
            try withUnsafeMutablePointer(to: &message, body)
        }

        /// Fills `target` (an initialised, empty zmq_msg_t) with a copy that libzmq may consume.
        func copy(into target: UnsafeMutablePointer<zmq_msg_t>) {
            copyLock.withLock { _ in _ = withMessage { zmq_msg_copy(target, $0) } }
        }
    }

    let storage: Storage

    init(storage: Storage) { self.storage = storage }

    /// An empty frame (the MDP delimiter, for instance).
    public init() { self = Self.empty }

    public init(_ buffer: UnsafeRawBufferPointer) {
        if buffer.count <= 1 {
            self = buffer.isEmpty ? Self.empty : Self.singleBytes[Int(buffer[0])]
        } else {
            self.init(copying: buffer)
        }
    }

    /// `buffer` as a frame: the one of `shared` with the same bytes, if
    /// any (a protocol's headers, which come in nearly every message), else
    /// as `init(_:)` makes it.
    public init(_ buffer: UnsafeRawBufferPointer, sharing shared: SharedFrames) {
        self = shared.frame(matching: buffer) ?? Frame(buffer)
    }

    private init(copying buffer: UnsafeRawBufferPointer) {
        storage = Storage(copying: buffer)
    }

    // Frames that recur in nearly every message are shared, not made anew:
    // the empty delimiter and one-byte commands here, a protocol's headers
    // by `init(_:sharing:)`. A frame never changes, and each new one cost
    // an object, libzmq's init and close, and a lock (a worker received
    // four of them with each request).
    private static let empty = Frame(storage: Storage())
    private static let singleBytes = (0...255).map { byte in Swift.withUnsafeBytes(of: UInt8(byte)) { Frame(copying: $0) } }

    public init<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if let frame = bytes.withContiguousStorageIfAvailable({ Frame(UnsafeRawBufferPointer($0)) }) {
            self = frame
        } else {
            self = Array(bytes).withUnsafeBytes { Frame($0) }
        }
    }

    public init(_ string: String) {
        var string = string
        self = string.withUTF8 { Frame(UnsafeRawBufferPointer($0)) }
    }

    /// A one-byte frame, such as an MDP command.
    public init(byte: UInt8) {
        self = Swift.withUnsafeBytes(of: byte) { Frame($0) }
    }

    public var count: Int { storage.bytes.count }
    public var isEmpty: Bool { count == 0 }

    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(storage.bytes)
    }

    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// The frame as UTF-8 text, or nil when it is not valid UTF-8.
    public var string: String? {
        withUnsafeBytes { raw in
            let bytes = raw.assumingMemoryBound(to: UInt8.self)
            // ASCII (service names, headers) needs no validating; and
            // `String(validating:)`, generic and not specialized here, asks
            // the runtime for type metadata on every call: about 900
            // instructions for a four-letter service name.
            if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
            return String(validating: bytes, as: UTF8.self)
        }
    }

    /// The only byte of a one-byte frame.
    public var singleByte: UInt8? { count == 1 ? withUnsafeBytes { $0[0] } : nil }
}

import TestSupport
import TestTraits
import Testing
@testable import ZeroMQ

/// The ZMTP session and decoder fed bytes, no socket: every refusal
/// docs/PROTOCOL.md lists for plaintext ipc://, each limit, and the
/// handshake's order.
@Suite("ZMTP session, byte by byte", .ownThread, .timeLimit(.minutes(5)))
struct ZMTPSessionTests {
    @Test func test_aDealersOpening_isAdmitted_andItsMessagesDelivered_withThePrefixFirst() async {
        var session = ZMTPSession.router()
        var delegate = RecordingDelegate(prefix: "peer-1")
        #expect(session.written == ZMTP.greeting, "the greeting goes out alone first")
        session.feed(ZMTPBytes.opening + ZMTPBytes.message([[], Array("hello".utf8)]), to: &delegate)
        #expect(session.stage == .traffic)
        #expect(delegate.readies == 1)
        #expect(delegate.messages == [["peer-1", "", "hello"]])
        #expect(session.written == ZMTP.greeting + ZMTPEncoder.ready(socketType: "ROUTER", identity: nil), "READY after the peer's greeting")
    }

    @Test(arguments: [1, 2, 3, 7, 64, 65, 1000])
    func test_bytesSplitAnywhere_decodeAsTheWholeDoes(chunk: Int) async {
        let bytes =
            ZMTPBytes.opening + ZMTPBytes.message([[], Array(repeating: 7, count: 300), [1]])
            + ZMTPBytes.command("PING", [0, 0, 9, 9]) + ZMTPBytes.message([Array(repeating: 3, count: 255)])
        var whole = ZMTPSession.router()
        var wholeDelegate = RecordingDelegate()
        whole.feed(bytes, to: &wholeDelegate)
        var pieces = ZMTPSession.router()
        var piecesDelegate = RecordingDelegate()
        pieces.feed(bytes, chunk: chunk, to: &piecesDelegate)
        #expect(piecesDelegate.messages == wholeDelegate.messages)
        #expect(pieces.written == whole.written)
        #expect(wholeDelegate.messages.count == 2 && !pieces.isInsideMessage)
    }

    // MARK: Refusals (docs/PROTOCOL.md, "Bad input")

    @Test(arguments: [
        ("not ZMTP", ZMTPBytes.greeting(signature: 0x47), "it does not speak ZMTP"),
        ("ZMTP 2", ZMTPBytes.greeting(major: 2), "it speaks ZMTP 2.x; this end speaks 3.x"),
        ("CURVE", ZMTPBytes.greeting(mechanism: "CURVE"), "it asks for the CURVE mechanism"),
    ])
    func test_aGreetingThatCannotBeSpoken_isRefused_withAnErrorItCanRead(_ what: String, _ greeting: [UInt8], _ reason: String) async {
        var session = ZMTPSession.router()
        var delegate = RecordingDelegate()
        session.feed(greeting + ZMTPBytes.ready() + ZMTPBytes.message([[1]]), to: &delegate)
        #expect(session.stage == .ended, "\(what)")
        #expect(session.failure?.kind == .refused)
        #expect(session.errorReason?.hasPrefix(reason) == true, "\(what): \(session.errorReason ?? "no ERROR")")
        #expect(delegate.messages.isEmpty && delegate.readies == 0)
    }

    @Test func test_aMessageBeforeREADY_isRefused() async {
        var session = ZMTPSession.router()
        var delegate = RecordingDelegate()
        session.feed(ZMTPBytes.greeting + ZMTPBytes.message([[1]]), to: &delegate)
        #expect(session.errorReason == "it sent a message before its READY")
        #expect(delegate.messages.isEmpty)
    }

    @Test func test_anotherCommandDuringTheHandshake_isRefused_namingIt() async {
        var session = ZMTPSession.router()
        var delegate = RecordingDelegate()
        session.feed(ZMTPBytes.greeting + ZMTPBytes.command("PING", [0, 0]), to: &delegate)
        #expect(session.errorReason == "it sent \"PING\" during the handshake")
    }

    @Test func test_aCommandWhoseNameRunsPastItsEnd_isRefused() async {
        var session = ZMTPSession.router()
        var delegate = RecordingDelegate()
        session.feed(ZMTPBytes.greeting + [ZMTP.command, 3, 9, 65, 66], to: &delegate)
        #expect(session.errorReason == "it sent a malformed command")
    }

    @Test func test_aSocketTypeThatCannotTalkToARouter_isRefused_namingIt() async {
        var session = ZMTPSession.router()
        var delegate = RecordingDelegate()
        session.feed(ZMTPBytes.greeting + ZMTPBytes.ready(socketType: "PUB"), to: &delegate)
        #expect(session.errorReason == "its socket type \"PUB\" cannot talk to this one (DEALER, REQ, ROUTER can)")
        #expect(delegate.readies == 0)
    }

    @Test func test_aREADYWithoutASocketType_isRefused() async {
        var session = ZMTPSession.router()
        var delegate = RecordingDelegate()
        session.feed(ZMTPBytes.greeting + ZMTPBytes.command("READY"), to: &delegate)
        #expect(session.errorReason?.hasPrefix("its socket type \"(none)\"") == true)
    }

    @Test func test_aPeerItsOwnerRefuses_isToldWhy() async {
        var session = ZMTPSession.router()
        var delegate = RecordingDelegate(refusal: "its routing id 0x01 is already connected")
        session.feed(ZMTPBytes.opening + ZMTPBytes.message([[1]]), to: &delegate)
        #expect(session.errorReason == "its routing id 0x01 is already connected")
        #expect(delegate.messages.isEmpty)
    }

    @Test func test_anERRORFromThePeer_endsTheSession_withItsReason() async {
        var session = ZMTPSession.router()
        var delegate = RecordingDelegate()
        session.feed(ZMTPBytes.opening + ZMTPBytes.command("ERROR", [4] + Array("gone".utf8)), to: &delegate)
        #expect(session.failure == PeerProblem(.peerError, "gone"))
    }

    // MARK: Limits

    @Test func test_aFrameOverTheLimit_endsTheSession_fromItsHeaderAlone() async {
        var session = ZMTPSession.router()
        var delegate = RecordingDelegate()
        session.feed(ZMTPBytes.opening + ZMTPBytes.header(size: 1001), to: &delegate)
        #expect(session.failure == PeerProblem(.oversizedFrame, "a frame of 1001 bytes is over the limit of 1000"))
    }

    @Test func test_aMessageOverTheLimitInAll_endsTheSession_thoughEachFrameIsWithinIt() async {
        var session = ZMTPSession.router()  // frames up to 1000 bytes, messages up to 1500
        var delegate = RecordingDelegate()
        let big = [UInt8](repeating: 1, count: 800)
        session.feed(ZMTPBytes.opening + ZMTPBytes.message([big, big]), to: &delegate)
        #expect(session.failure?.kind == .oversizedMessage)
        #expect(session.failure?.detail == "a message of more than 1600 bytes is over the limit of 1500")
        #expect(delegate.messages.isEmpty)
    }

    @Test func test_aMessageOfTooManyFrames_isDropped_andTheNextIsDelivered() async {
        var session = ZMTPSession.router()  // at most 4 frames
        var delegate = RecordingDelegate()
        session.feed(ZMTPBytes.opening + ZMTPBytes.message([[1], [2], [3], [4], [5]]) + ZMTPBytes.message([[6]]), to: &delegate)
        #expect(delegate.dropped == [PeerProblem(.tooManyFrames, "a message of 5 frames (at most 4)")])
        #expect(delegate.messages == [[Frame([6])]])
        #expect(session.stage == .traffic)
    }

    @Test func test_aCommandInsideAMessage_endsTheSession() async {
        var session = ZMTPSession.router()
        var delegate = RecordingDelegate()
        session.feed(
            ZMTPBytes.opening + ZMTPBytes.header(size: 1, flags: ZMTP.more) + [1] + ZMTPBytes.command("PING", [0, 0]),
            to: &delegate)
        #expect(session.failure == PeerProblem(.malformed, "it sent a command inside a message"))
    }

    @Test func test_aCommandOverItsLimit_endsTheSession() async {
        var session = ZMTPSession.router(ZMTP.Limits(maxFrameSize: 1 << 20, maxFrames: 4))
        var delegate = RecordingDelegate()
        session.feed(ZMTPBytes.opening + ZMTPBytes.header(size: ZMTP.maxCommandSize + 1, flags: ZMTP.command), to: &delegate)
        #expect(session.failure?.kind == .oversizedFrame)
    }

    @Test func test_aPING_isAnsweredWithAPONG_echoingItsContext() async {
        var session = ZMTPSession.router()
        var delegate = RecordingDelegate()
        session.feed(ZMTPBytes.opening, to: &delegate)
        let before = session.written.count
        session.feed(ZMTPBytes.command("PING", [0, 10] + Array("ctx".utf8)), to: &delegate)
        #expect(Array(session.written[before...]) == ZMTPBytes.command("PONG", Array("ctx".utf8)))
    }

    @Test func test_aSubscribersSUBSCRIBEAndCANCELCommands_areHandedOnAsSubscriptionMessages() async {
        var session = ZMTPSession(
            socketType: "XPUB", peerTypes: ["SUB"], limits: ZMTP.Limits(maxFrameSize: 100, maxFrames: 4),
            subscriptionCommands: true)
        var delegate = RecordingDelegate(prefix: "sub-1")
        session.feed(
            ZMTPBytes.greeting + ZMTPBytes.ready(socketType: "SUB") + ZMTPBytes.command("SUBSCRIBE", Array("posts".utf8))
                + ZMTPBytes.command("CANCEL", Array("posts".utf8)), to: &delegate)
        #expect(delegate.messages == [["sub-1", Frame([1] + Array("posts".utf8))], ["sub-1", Frame([0] + Array("posts".utf8))]])
    }

    @Test func test_aRouterIgnoresSUBSCRIBE() async {
        var session = ZMTPSession.router()
        var delegate = RecordingDelegate()
        session.feed(ZMTPBytes.opening + ZMTPBytes.command("SUBSCRIBE", Array("x".utf8)), to: &delegate)
        #expect(delegate.messages.isEmpty && session.stage == .traffic)
    }

    // MARK: Memory follows the bytes that came

    @Test func test_aHeaderAnnouncingALargeFrame_holdsNoMoreThanTheBytesThatCame() async {
        var session = ZMTPSession.router(ZMTP.Limits(maxFrameSize: 16 << 20, maxFrames: 4))
        var delegate = RecordingDelegate()
        session.feed(ZMTPBytes.opening + ZMTPBytes.header(size: 16 << 20) + [1, 2, 3], to: &delegate)
        #expect(session.isInsideMessage)
        let room = session.room(atLeast: 1 << 16)
        #expect(room?.count == 1 << 16, "room for one read, not the 16 MiB announced")
        #expect(delegate.messages.isEmpty)
    }

    @Test func test_readingIntoTheRoom_completesAFrame_andLetsGoOfIt() async {
        var session = ZMTPSession.router(ZMTP.Limits(maxFrameSize: 1 << 20, maxFrames: 4))
        var delegate = RecordingDelegate()
        let body = (0..<300_000).map { UInt8(truncatingIfNeeded: $0) }
        session.feed(ZMTPBytes.opening + ZMTPBytes.header(size: body.count) + body.prefix(10), to: &delegate)
        var at = 10
        while at < body.count {
            guard let room = session.room(atLeast: 4096) else {
                Issue.record("part of a frame is kept, so there is room after it")
                return
            }
            let count = min(room.count, body.count - at)
            body[at..<(at + count)].withUnsafeBytes { room.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: count) }
            session.received(count, delegate: &delegate)
            at += count
        }
        #expect(delegate.messages == [[Frame(body)]])
        #expect(session.room(atLeast: 4096) == nil, "nothing kept once the frame is whole")
        #expect(!session.isInsideMessage)
    }

    @Test func test_aMessageHalfSent_isInsideAMessage_untilItsLastFrame() async {
        var session = ZMTPSession.router()
        var delegate = RecordingDelegate()
        session.feed(ZMTPBytes.opening, to: &delegate)
        #expect(!session.isInsideMessage)
        session.feed(ZMTPBytes.header(size: 1, flags: ZMTP.more) + [1], to: &delegate)
        #expect(session.isInsideMessage, "a frame with MORE, the rest not come")
        session.feed(ZMTPBytes.header(size: 2) + [2], to: &delegate)
        #expect(session.isInsideMessage, "half a frame")
        session.feed([3], to: &delegate)
        #expect(!session.isInsideMessage)
        #expect(delegate.messages == [[Frame([1]), Frame([2, 3])]])
    }
}

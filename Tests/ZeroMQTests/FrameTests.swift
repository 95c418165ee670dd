import TestSupport
import TestTraits
import Testing
@testable import ZeroMQ

@Suite("Frame", .ownThread, .timeLimit(.minutes(5)))
struct FrameTests {
    @Test func test_aFrameKeepsItsBytes() async {
        let bytes: [UInt8] = [0, 1, 2, 255]
        #expect(Frame(bytes).bytes == bytes)
        #expect(Frame("héllo").string == "héllo")
        #expect(Frame().isEmpty)
        #expect(Frame(byte: 5).singleByte == 5)
        #expect(Frame("ab").singleByte == nil)
    }

    /// The empty frame and one-byte frames are shared between messages, and
    /// so are a protocol's headers where it asks; each must still be exactly
    /// its own bytes.
    @Test func test_framesThatAreShared_holdExactlyTheirBytes() async throws {
        for byte in UInt8.min...UInt8.max {
            #expect(Frame([byte]).bytes == [byte])
            #expect(Frame(byte: byte).singleByte == byte)
        }
        let headers: [Frame] = ["MDPC01", "MDPW01"]
        let shared = SharedFrames(headers)
        for text in ["MDPC01", "MDPW01", "MDPC02", "MDPW0", "MDPW011", "mdpw01", "", "M"] {
            let frame = Array(text.utf8).withUnsafeBytes { Frame($0, sharing: shared) }
            #expect(frame.bytes == Array(text.utf8))
            let header = headers.first { $0.bytes == Array(text.utf8) }
            #expect((header.map { $0.storage === frame.storage }) ?? true, "\(text) is handed on shared")
            #expect(Frame(text).bytes == Array(text.utf8))
        }
        // Shared frames still travel whole, however often they are sent.
        let context = try Context()
        let (a, b) = try pair(context, .pair, .pair)
        let message = [Frame(), Frame("MDPW01"), Frame(byte: 2), Frame(), Frame("body")]
        for _ in 0..<3 { try a.send(message) }
        for _ in 0..<3 { #expect(try b.receive()?.map(\.bytes) == message.map(\.bytes)) }
    }

    @Test func test_framesCompareAndHashByContent() async throws {
        #expect(Frame("abc") == Frame(Array("abc".utf8)))
        #expect(Frame("abc") != Frame("abd"))
        #expect(Set<Frame>(["a", "a", "b"]).count == 2)
        // Short frames hash as a word and a length: trailing zero bytes,
        // and lengths either side of eight, still tell frames apart.
        let distinct: [[UInt8]] = [
            [], [0], [0, 0], [1], [1, 0], [0, 1], [1, 2, 3, 4, 5, 6, 7], [1, 2, 3, 4, 5, 6, 7, 0],
            [1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4, 5, 6, 7, 8, 0], [1, 2, 3, 4, 5, 6, 7, 8, 9],
        ]
        var table: [Frame: Int] = [:]
        for (index, bytes) in distinct.enumerated() { table[Frame(bytes)] = index }
        #expect(table.count == distinct.count)
        // A frame that arrived on a socket equals, and finds, one made here.
        let context = try Context()
        let (a, b) = try pair(context, .pair, .pair)
        try a.send(distinct.map { Frame($0) })
        let received = try #require(try b.receive())
        #expect(received.map(\.bytes) == distinct)
        for (index, frame) in received.enumerated() {
            #expect(table[frame] == index)
            #expect(frame.count == distinct[index].count)
        }
    }

    @Test func test_invalidUTF8HasNoString_andPrintsAsHex() async {
        let frame = Frame([0xFF, 0x00])
        #expect(frame.string == nil)
        // ASCII takes a path of its own; a frame that starts as ASCII is
        // still checked to its end.
        #expect(Frame("echo.v2-a_b").string == "echo.v2-a_b")
        #expect(Frame().string == "")
        #expect(Frame(Array("echo".utf8) + [0xC3]).string == nil)
        #expect(Frame(Array("echo".utf8) + [0xC3, 0xA9]).string == "echoé")
        #expect(frame.description == "0xff00")
        #expect(Frame("MDPC01").description == "MDPC01")
    }

    @Test func test_aLargeFrameSentTwiceArrivesWholeBothTimes() async throws {
        let context = try Context()
        let (a, b) = try pair(context, .pair, .pair)
        let payload = Frame((0..<100_000).map { UInt8($0 % 251) })
        try a.send([payload])
        try a.send([payload])
        #expect(try b.receive() == [payload])
        #expect(try b.receive() == [payload])
        #expect(payload.count == 100_000)
    }
}

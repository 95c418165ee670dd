import Domain
import Foundation
import TestSupport
import TestTraits
import Testing

@Suite("UUID text", .ownThread, .timeLimit(.minutes(5)))
struct UUIDTextTests {
    @Test func test_aUUIDReadsBackAsItself_inEitherCase_asFoundationReadsIt() async {
        for _ in 0..<200 {
            let uid = UUID()
            #expect(UUID(text: uid.uuidString) == uid)
            #expect(UUID(text: uid.uuidString.lowercased()) == uid)
            #expect(UUID(text: uid.uuidString.lowercased()) == UUID(uuidString: uid.uuidString.lowercased()))
        }
        let text = "x" + UUID().uuidString + "y"
        #expect(UUID(text: text.dropFirst().dropLast()) == UUID(uuidString: String(text.dropFirst().dropLast())), "a substring")
    }

    @Test func test_aUUIDIsWrittenAsFoundationWritesIt() async {
        let edges = [
            UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
            UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)),
        ]
        for uid in edges + (0..<200).map({ _ in UUID() }) {
            #expect(uid.text == uid.uuidString)
        }
    }

    @Test(arguments: [
        "", "0", "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F0",
        "E621E1F8C36C-495A-93FC-0C247A3E6E5F0", "E621E1F8-C36C-495A-93FC+0C247A3E6E5F", "{621E1F8-C36C-495A-93FC-0C247A3E6E5}",
        "G621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8-C36C-495A-93F-C0C247A3E6E5F", "É621E1F8-C36C-495A-93FC-0C247A3E6E5",
        " E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
    ])
    func test_anythingElseIsNotAUUID_forFoundationEither(_ text: String) async {
        #expect(UUID(text: text) == nil)
        #expect(UUID(uuidString: text) == nil)
    }
}

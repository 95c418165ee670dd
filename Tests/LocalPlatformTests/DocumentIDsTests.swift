import Foundation
@testable import LocalPlatform
import TestSupport
import TestTraits
import Testing

/// `DocumentIDs` finds the document that holds a post by its uid: checked
/// against a dictionary through growth, removals (which shift later slots
/// back) and uids whose hashed bits coincide, which only the document can
/// tell apart.
@Suite("Which document holds each post", .ownThread, .timeLimit(.minutes(5)))
struct DocumentIDsTests {
    @Test func test_everyRecordedPostIsFound_andNoOther_throughGrowthAndRemovals() async {
        var ids = DocumentIDs()
        var truth: [UUID: Int64] = [:]
        var holders: [Int64: UUID] = [:]
        var generator = SystemRandomNumberGenerator()
        var nextRowid: Int64 = 1
        for round in 0..<60_000 {
            let existing = truth.keys.randomElement(using: &generator)
            if round % 3 == 2, let uid = existing {
                let rowid = truth.removeValue(forKey: uid)!
                holders[rowid] = nil
                ids.remove(uid, rowid: rowid)
            } else {
                let uid = UUID()
                truth[uid] = nextRowid
                holders[nextRowid] = uid
                ids.insert(uid, rowid: nextRowid)
                nextRowid += 1
            }
        }
        #expect(ids.count == truth.count)
        for (uid, rowid) in truth {
            #expect(ids.rowid(of: uid) { holders[$0] == uid } == rowid)
        }
        // A uid never recorded is not found; its bits rarely match a slot's
        // (about 1 in 13,000 here: those of one home share its lower 16),
        // and only then is a document asked to confirm it.
        var asked = 0
        for _ in 0..<1_000 {
            let stranger = UUID()
            let found = ids.rowid(of: stranger) { rowid in
                asked += 1
                return holders[rowid] == stranger
            }
            #expect(found == nil, "a uid never recorded is not found")
        }
        #expect(asked < 10, "documents asked to confirm a uid never recorded: \(asked) of 1,000")
    }

    @Test func test_uidsWhoseBitsCoincide_areToldApartByTheirDocuments() async throws {
        var byKey: [UInt64: UUID] = [:]
        var pair: (UUID, UUID)?
        while pair == nil {
            let uid = UUID()
            let key = DocumentIDs.key(of: uid)
            if let other = byKey[key] { pair = (other, uid) } else { byKey[key] = uid }
        }
        let (first, second) = try #require(pair)
        var ids = DocumentIDs()
        ids.insert(first, rowid: 7)
        ids.insert(second, rowid: 9)
        let holders: [Int64: UUID] = [7: first, 9: second]
        #expect(ids.rowid(of: first) { holders[$0] == first } == 7)
        #expect(ids.rowid(of: second) { holders[$0] == second } == 9)
        ids.remove(first, rowid: 7)
        #expect(ids.rowid(of: first) { holders[$0] == first } == nil)
        #expect(ids.rowid(of: second) { holders[$0] == second } == 9)
    }

    @Test func test_aRowidPastTheBound_isRefusedBeforeItIsWritten() async {
        #expect(throws: DocumentIDs.Failure.self) { try DocumentIDs.admit(rowid: DocumentIDs.maxRowid + 1, count: 0) }
        #expect(throws: DocumentIDs.Failure.self) { try DocumentIDs.admit(rowid: 1, count: DocumentIDs.maxSlots / 2) }
        #expect(throws: Never.self) { try DocumentIDs.admit(rowid: DocumentIDs.maxRowid, count: 0) }
    }
}

import ArgumentParser
import Domain
import Foundation
import ServiceSupport
import Synchronization
import Wire

/// Reads the entries of an import file (a JSON array or JSON Lines): only
/// the format; what an entry means is Domain's `ImportRules`.
enum ImportReader {
    struct Entry: Decodable {
        var uid: String?
        var userId: Int64?
        var id: Int64?
        var title: String?
        var content: String?
        var body: String?
        var createDate: String?
    }

    static func entries(from data: Data) throws(PostsError) -> [ImportEntry] {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        var items: [(label: String, value: JSONValue)] = []
        if data.first(where: { !isSpace($0) }) == UInt8(ascii: "[") {
            let document: JSONValue
            do {
                document = try JSONValue(parsing: data)
            } catch {
                throw .invalid("file", .malformed("starts like a JSON array but is not valid JSON: \(error)"))
            }
            guard case .array(let array) = document else { throw .invalid("file", .malformed("is not one JSON array")) }
            for (index, element) in array.enumerated() { items.append(("entry \(index + 1)", element)) }
        } else {
            // Raw bytes, not Characters: splitting 100 MB of text by grapheme,
            // or even through Data's generic split, is what made imports slow.
            var lines: [(label: String, data: Data)] = []
            data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                var start = 0
                var number = 1
                while start <= bytes.count {
                    let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
                    let line = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
                    if !line.allSatisfy(isSpace) { lines.append(("line \(number)", Data(line))) }
                    start = end + 1
                    number += 1
                }
            }
            for (label, line) in lines {
                do {
                    items.append((label, try JSONValue(parsing: line)))
                } catch {
                    throw .invalid(label, .malformed("is not valid JSON: \(error)"))
                }
            }
        }
        var entries: [ImportEntry] = []
        entries.reserveCapacity(items.count)
        for (label, value) in items {
            guard case .object = value else {
                throw .invalid(label, .malformed("is not a post object (expected {\"title\", \"content\"} or {\"title\", \"body\"})"))
            }
            // Wire's decoder, as every request's: a member of the wrong kind is named.
            let entry = try value.decode(Entry.self, root: label)
            entries.append(
                ImportEntry(
                    label: label, uid: entry.uid, userId: entry.userId, id: entry.id, title: entry.title,
                    content: entry.content, body: entry.body, createDate: entry.createDate))
        }
        return entries
    }
}

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
        var read: [(label: String, entry: Entry)] = []
        if data.first(where: { !isSpace($0) }) == UInt8(ascii: "[") {
            let document: JSONBytes
            do {
                document = try JSONBytes(checking: data)
            } catch {
                throw .invalid("file", .malformed("starts like a JSON array but is not valid JSON: \(error)"))
            }
            let label = { (index: Int) in "entry \(index + 1)" }
            guard let entries = try objects({ () throws(PostsError) in try document.decodeElements(Entry.self, name: label) }) else {
                throw .invalid("file", .malformed("is not one JSON array"))
            }
            read = entries.enumerated().map { (label($0.offset), $0.element) }
        } else {
            // Raw bytes, not Characters: splitting 100 MB of text by grapheme,
            // or even through Data's generic split, is what made imports slow.
            var failure: PostsError?
            data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                var start = 0
                var number = 1
                while start <= bytes.count, failure == nil {
                    let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
                    let line = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
                    let label = "line \(number)"
                    if !line.allSatisfy(isSpace) {
                        do throws(PostsError) {
                            let text: JSONBytes
                            do {
                                text = try JSONBytes(checking: line)
                            } catch {
                                throw .invalid(label, .malformed("is not valid JSON: \(error)"))
                            }
                            let entry = try objects { () throws(PostsError) in try text.decode(Entry.self, root: label) }
                            read.append((label, entry))
                        } catch {
                            failure = error
                        }
                    }
                    start = end + 1
                    number += 1
                }
            }
            if let failure { throw failure }
        }
        return read.map { label, entry in
            ImportEntry(
                label: label, uid: entry.uid, userId: entry.userId, id: entry.id, title: entry.title,
                content: entry.content, body: entry.body, createDate: entry.createDate)
        }
    }

    /// Reads with Wire's reader, as every request is read (a member of the
    /// wrong kind is named), saying so when an entry is not an object at all.
    private static func objects<T>(_ read: () throws(PostsError) -> T) throws(PostsError) -> T {
        do {
            return try read()
        } catch {
            // The entry itself, not one of its members, is of the wrong kind.
            if case .invalid(let invalid) = error, !invalid.field.contains("."), case .wrongType(expected: .object, _) = invalid.reason {
                throw .invalid(invalid.field, .malformed("is not a post object (expected {\"title\", \"content\"} or {\"title\", \"body\"})"))
            }
            throw error
        }
    }
}

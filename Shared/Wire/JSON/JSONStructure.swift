/// Where each object's members and each array's elements start in a text,
/// noted while the text is checked (`JSONParser.checkValue` with a
/// `structure` to fill), so that reading it never skips a value only to
/// find the next one: a container's members are looked up, not scanned.
/// A request's params are read so.
///
/// Only texts of `worthNoting` bytes or more are noted: in a smaller one
/// (a posts.get, a posts.save) scanning a container's few members again
/// costs less than the notes' tables. The notes grow with the text, one
/// entry per container and per value in one: a request's are bounded by
/// the frame limit (`--max-frame-size`), an import's by its file.
final class JSONStructure: Sendable {
    static let worthNoting = 4096

    /// By the offset of each object's `{`: its members, as written.
    let objects: [Int: [JSONReader.Member]]
    /// By the offset of each array's `[`: where its elements start.
    let arrays: [Int: [Int]]

    init(_ notes: Notes) { (objects, arrays) = (notes.objects, notes.arrays) }

    /// What a check notes as it goes.
    struct Notes {
        var objects: [Int: [JSONReader.Member]] = [:]
        var arrays: [Int: [Int]] = [:]
    }
}

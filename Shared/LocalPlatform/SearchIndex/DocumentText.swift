import CZstd
import Foundation
import GRDB
import Synchronization
import SystemSupport

/// A search document's title and content as the index stores them: one
/// blob, compressed with zstd and a dictionary trained on the index's own
/// documents once it holds `trainingDocuments` of them (`train`). A post's
/// text is a few hundred bytes, too little for zstd alone to find much to
/// share; with the dictionary, 200,000 posts' text took 2.07× less room at
/// the unigram corpus and 2.77× at the man pages, about 1.5 µs a post to
/// compress and 0.6 µs to read back (Python's zstandard on the same
/// library; the index files: docs/BENCHMARKS.md).
///
/// The blob: a first byte that says how the rest is stored (`plain` or
/// `compressed`), then the text: the title's length in bytes (LEB128),
/// the title, the content, in UTF-8.
///
/// zstd's contexts belong to one thread at a time: the one that encodes is
/// used under a lock; each decoding takes a context no other is using (as
/// many as ever decoded at once: searches read texts on every core).
final class DocumentText: @unchecked Sendable {
    /// How a blob's text is stored, by its first byte.
    static let plain: UInt8 = 0
    static let compressed: UInt8 = 1
    /// The index trains its dictionary once it holds this many documents,
    /// from them. zstd's trainer takes time in proportion to its samples,
    /// and the writer waits for it: from 20,000 posts it trained in 0.29 s
    /// (unigram corpus) and 0.48 s (long posts) against 0.70 and 1.13 s
    /// from 50,000, and compressed 0.3% less at both (Python's zstandard
    /// on the same library; from 10,000: 0.6% less at the unigram corpus).
    static let trainingDocuments = 20_000
    /// The dictionary's size: 256 KiB gained 1-4% more on the two corpora.
    static let dictionaryBytes = 65_536
    /// zstd's level 3: level 9 took three to four times as long, for 4%
    /// more at the man pages and less at the unigram corpus.
    static let level: Int32 = 3
    /// The most a stored text may say it holds (a post's text is far less:
    /// `PostRules`); more means the blob is damaged.
    static let largestText = 64 << 20

    /// The dictionary the index trained; nil: texts are stored plain.
    let dictionary: [UInt8]?
    /// The dictionary's id: its bytes 4 to 7, as zstd's format places it
    /// (RFC 8878), random at each training; nil without one.
    let id: Data?
    private let lock = Mutex(())
    private let compressor: OpaquePointer?
    private let decompressor: OpaquePointer?
    private let compressionContext: OpaquePointer?
    /// Decompression contexts not in use (`decompress`; `IdlePool`: as
    /// many as ever decoded at once).
    private let decompressionContexts = IdlePool<DecompressionContext>()
    /// A zstd context, handed between threads but used by one at a time.
    private struct DecompressionContext: @unchecked Sendable { let pointer: OpaquePointer }
    /// Room to lay a text out in and to compress it into, kept between
    /// documents (used under the lock): at most four times the largest post
    /// (`PostRules`: 102 KB of text), so about 410 KB.
    private var scratch = UnsafeMutableRawBufferPointer(start: nil, count: 0)

    init(dictionary: [UInt8]? = nil) {
        self.dictionary = dictionary
        id = dictionary.map { Data($0.dropFirst(4).prefix(4)) }
        guard let dictionary else {
            (compressor, decompressor, compressionContext) = (nil, nil, nil)
            return
        }
        compressor = dictionary.withUnsafeBytes { ZSTD_createCDict($0.baseAddress, $0.count, Self.level) }
        decompressor = dictionary.withUnsafeBytes { ZSTD_createDDict($0.baseAddress, $0.count) }
        compressionContext = ZSTD_createCCtx()
    }

    deinit {
        ZSTD_freeCDict(compressor)
        ZSTD_freeDDict(decompressor)
        ZSTD_freeCCtx(compressionContext)
        for context in decompressionContexts.drain() { ZSTD_freeDCtx(context.pointer) }
        scratch.deallocate()
    }

    /// The blob to store for a document's title and content: compressed
    /// when the index has its dictionary and that makes it smaller.
    func encode(title: String, content: String) -> Data {
        guard let compressor, let compressionContext else { return Self.text(title: title, content: content, after: Self.plain) }
        var (title, content) = (title, content)
        let size = Self.size(title.utf8.count, content.utf8.count)
        return lock.withLock { _ in
            let bound = ZSTD_compressBound(size)
            if scratch.count < size + 1 + bound {
                scratch.deallocate()
                scratch = .allocate(byteCount: 2 * (size + 1 + bound), alignment: 8)
            }
            let (text, output) = (scratch.baseAddress!, scratch.baseAddress! + size)
            title.withUTF8 { title in content.withUTF8 { content in Self.lay(title, content, at: text) } }
            let written = ZSTD_compress_usingCDict(compressionContext, output + 1, bound, text, size, compressor)
            guard ZSTD_isError(written) == 0, written < size else {
                var blob = Data([Self.plain])
                blob.append(contentsOf: UnsafeRawBufferPointer(start: text, count: size))
                return blob
            }
            output.storeBytes(of: Self.compressed, as: UInt8.self)
            return Data(bytes: output, count: 1 + written)
        }
    }

    /// A stored blob's title and content. A blob this text cannot read (an
    /// unknown first byte, a frame of another dictionary or cut short, a
    /// length past the text, bytes that are not UTF-8) is an error
    /// (SQLITE_CORRUPT). No checksum is kept: a byte changed on disk in a
    /// text's letters reads as another letter, as in any SQLite text.
    func decode(_ blob: Data) throws -> (title: String, content: String) {
        guard let how = blob.first else { throw Self.damaged("an empty blob") }
        let stored = blob.dropFirst()
        switch how {
        case Self.plain: return try Self.split(stored)
        case Self.compressed: return try Self.split(decompress(stored))
        default: throw Self.damaged("stored in an unknown way (\(how))")
        }
    }

    private func decompress(_ frame: Data) throws -> Data {
        guard let decompressor else { throw Self.damaged("compressed, but the index has no dictionary") }
        return try frame.withUnsafeBytes { input in
            let size = ZSTD_getFrameContentSize(input.baseAddress, input.count)
            guard size <= UInt64(Self.largestText) else { throw Self.damaged("a frame that does not say its size") }
            var text = Data(count: Int(size))
            let read = try text.withUnsafeMutableBytes { output throws(DatabaseError) in
                try decompressionContexts.use(making: { () throws(DatabaseError) in
                    // No memory for one: read as a frame zstd cannot read.
                    guard let made = ZSTD_createDCtx() else { throw Self.damaged("a frame zstd cannot read") }
                    return DecompressionContext(pointer: made)
                }) { context throws(DatabaseError) in
                    ZSTD_decompress_usingDDict(context.pointer, output.baseAddress, output.count, input.baseAddress, input.count, decompressor)
                }
            }
            guard ZSTD_isError(read) == 0, read == Int(size) else { throw Self.damaged("a frame zstd cannot read") }
            return text
        }
    }

    /// The text as stored before compression (see the type's comment),
    /// after a byte `first` if any.
    static func text(title: String, content: String, after first: UInt8? = nil) -> Data {
        var (title, content) = (title, content)
        let size = Self.size(title.utf8.count, content.utf8.count)
        let offset = first == nil ? 0 : 1
        var text = Data(count: offset + size)
        text.withUnsafeMutableBytes { bytes in
            if let first { bytes[0] = first }
            title.withUTF8 { title in content.withUTF8 { content in lay(title, content, at: bytes.baseAddress! + offset) } }
        }
        return text
    }

    /// The bytes of a text of a title and content of these many bytes.
    private static func size(_ title: Int, _ content: Int) -> Int {
        var lengthBytes = 1
        while title >> (7 * lengthBytes) > 0 { lengthBytes += 1 }
        return lengthBytes + title + content
    }

    /// Writes the text of `title` and `content` at `start` (`size` bytes).
    private static func lay(_ title: UnsafeBufferPointer<UInt8>, _ content: UnsafeBufferPointer<UInt8>, at start: UnsafeMutableRawPointer) {
        var at = start
        var length = title.count
        repeat {
            at.storeBytes(of: UInt8(length & 0x7F) | (length >= 0x80 ? 0x80 : 0), as: UInt8.self)
            at += 1
            length >>= 7
        } while length > 0
        if let base = title.baseAddress { at.copyMemory(from: base, byteCount: title.count) }
        at += title.count
        if let base = content.baseAddress { at.copyMemory(from: base, byteCount: content.count) }
    }

    private static func split(_ text: Data) throws -> (title: String, content: String) {
        var length = 0, shift = 0, index = text.startIndex
        while true {
            guard index < text.endIndex, shift < 35 else { throw damaged("a title length that ends early") }
            let byte = text[index]
            index += 1
            length |= Int(byte & 0x7F) << shift
            shift += 7
            if byte < 0x80 { break }
        }
        guard length <= text.endIndex - index else { throw damaged("a title longer than the text") }
        let titleEnd = index + length
        guard let title = String(validating: text[index..<titleEnd], as: UTF8.self),
            let content = String(validating: text[titleEnd...], as: UTF8.self)
        else { throw damaged("text that is not UTF-8") }
        return (title, content)
    }

    /// A dictionary trained on `samples` (texts as `text` makes them); nil
    /// when zstd cannot make one of them (too few, or too alike).
    static func train(on samples: [Data]) -> [UInt8]? {
        let joined = samples.reduce(into: Data()) { $0.append($1) }
        let sizes = samples.map(\.count)
        var dictionary = [UInt8](repeating: 0, count: dictionaryBytes)
        let made = dictionary.withUnsafeMutableBytes { output in
            joined.withUnsafeBytes { input in
                ZDICT_trainFromBuffer(output.baseAddress, output.count, input.baseAddress, sizes, UInt32(sizes.count))
            }
        }
        guard ZDICT_isError(made) == 0 else { return nil }
        return Array(dictionary.prefix(made))
    }

    private static func damaged(_ what: String) -> DatabaseError {
        DatabaseError(resultCode: .SQLITE_CORRUPT, message: "a search document's text cannot be read: \(what)")
    }
}

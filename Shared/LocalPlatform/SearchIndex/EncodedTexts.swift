import Dispatch
import Foundation
import Synchronization

/// A page's texts as the index stores them (`DocumentText.encode`), made
/// on another thread, in order, while the page is written: the writer
/// takes each as it comes to its document, and waits only should it come
/// to one not made yet (a text takes about 1.5 µs to compress): that much
/// less on the writer, whose pace is the index's.
///
/// It holds a blob per change of the page, so its bound is the page's:
/// at most a catch-up batch (`SearchRules.catchUpBatch` changes, of at
/// most `SearchRules.catchUpBatchBytes` of text, less once compressed).
///
/// Each blob is written once by the encoding thread before `made` counts
/// it (release), and read by the writer only after it sees it counted
/// (acquire); the storage lives until both are done with it (the encoding
/// thread holds the object until it has made the last).
final class EncodedTexts: @unchecked Sendable {
    /// How the index stores (and reads) text, as the page began.
    let text: DocumentText
    private let blobs: UnsafeMutableBufferPointer<Data?>
    private let made = Atomic<Int>(0)
    private let done = DispatchSemaphore(value: 0)

    init(_ texts: [(title: String, content: String)?], as text: DocumentText) {
        self.text = text
        blobs = .allocate(capacity: texts.count)
        blobs.initialize(repeating: nil)
        DispatchQueue.global().async { [self] in
            for (offset, document) in texts.enumerated() {
                blobs[offset] = document.map { text.encode(title: $0.title, content: $0.content) }
                made.store(offset + 1, ordering: .releasing)
            }
            done.signal()
        }
    }

    deinit {
        blobs.deinitialize()
        blobs.deallocate()
    }

    /// The stored form of the text at `offset` in the page (nil: none there).
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    func blob(at offset: Int) -> Data? {
        if made.load(ordering: .acquiring) <= offset {
            done.wait()
            done.signal()  // for the next to wait
        }
        return blobs[offset]
    }
}

import Foundation
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Turns bytes into keys. Escape sequences (arrows, Home, PgUp…) arrive in
/// one read; a lone ESC is the Escape key.
enum KeyDecoder {
    static func keys(in bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x1B:
                let (key, length) = escape(bytes, from: index)
                if let key { keys.append(key) }  // a sequence we do not know (F1, Alt-x…) does nothing
                index += length
                continue
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x09: keys.append(.tab)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x01...0x1A: keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
            case 0x20...0x7E: keys.append(.character(Character(Unicode.Scalar(byte))))
            case 0xC0...0xF7:
                // UTF-8: a lead byte and its continuation bytes make one character.
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                let end = min(bytes.count, index + length)
                if let text = String(bytes: bytes[index..<end], encoding: .utf8), let character = text.first {
                    keys.append(.character(character))
                }
                index = end
                continue
            default: break
            }
            index += 1
        }
        return keys
    }

    private static func escape(_ bytes: [UInt8], from start: Int) -> (Key?, Int) {
        guard start + 1 < bytes.count, bytes[start + 1] == UInt8(ascii: "[") || bytes[start + 1] == UInt8(ascii: "O") else {
            return (.escape, 1)
        }
        var end = start + 2
        while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
        guard end < bytes.count else { return (nil, bytes.count - start) }
        let body = String(decoding: bytes[(start + 2)..<end], as: UTF8.self)
        let key: Key? =
            switch (Character(Unicode.Scalar(bytes[end])), body) {
            case ("A", _): .up
            case ("B", _): .down
            case ("C", _): .right
            case ("D", _): .left
            case ("H", _), ("~", "1"), ("~", "7"): .home
            case ("F", _), ("~", "4"), ("~", "8"): .end
            case ("~", "3"): .delete
            case ("~", "5"): .pageUp
            case ("~", "6"): .pageDown
            case ("Z", _): .backTab
            default: nil
            }
        return (key, end - start + 1)
    }

    /// Reads standard input on a thread of its own, for as long as the app runs.
    static func readKeys(into sink: @escaping @Sendable ([Key]) -> Void) {
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 256)
            while true {
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return }
                sink(keys(in: Array(buffer[0..<count])))
            }
        }
        thread.name = "keys"
        thread.start()
    }
}

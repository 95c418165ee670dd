#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Writes to standard error with write(2), unbuffered, so a line is out
/// before the process exits (or is killed) right after.
public enum StandardError {
    public static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return  // nowhere left to say it
                }
            }
        }
    }
}

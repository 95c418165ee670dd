import Foundation
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// A key press, decoded from the bytes a terminal sends.
enum Key: Equatable, Sendable {
    case character(Character)
    case enter, tab, backTab, backspace, delete, escape
    case up, down, left, right, home, end, pageUp, pageDown
    case control(Character)  // Ctrl-A … Ctrl-Z, as the lowercase letter
}

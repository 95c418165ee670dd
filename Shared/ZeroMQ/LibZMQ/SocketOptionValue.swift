import CZeroMQ

/// A type that can be the value of a socket option.
public protocol SocketOptionValue: Sendable {
    static func set(_ value: Self, option: Int32, on handle: UnsafeMutableRawPointer) -> Int32
    static func get(option: Int32, from handle: UnsafeMutableRawPointer) -> Self?
}

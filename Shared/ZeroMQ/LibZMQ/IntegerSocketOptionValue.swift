import CZeroMQ

/// The integer options (int and int64_t in libzmq): the value's bytes as
/// they are in memory, one body for both widths.
public protocol IntegerSocketOptionValue: FixedWidthInteger, SocketOptionValue {}

extension IntegerSocketOptionValue {
    public static func set(_ value: Self, option: Int32, on handle: UnsafeMutableRawPointer) -> Int32 {
        withUnsafeBytes(of: value) { zmq_setsockopt(handle, option, $0.baseAddress, $0.count) }
    }

    public static func get(option: Int32, from handle: UnsafeMutableRawPointer) -> Self? {
        var value: Self = 0
        var size = MemoryLayout<Self>.size
        return zmq_getsockopt(handle, option, &value, &size) == 0 ? value : nil
    }
}

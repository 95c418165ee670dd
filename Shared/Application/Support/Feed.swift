/// One input of a view model, and the way to send to it: a view (or a
/// test) makes one per input, hands `stream` to the view model and calls
/// `send` when the person acts.
public struct Feed<Element: Sendable>: Sendable {
    public let stream: AsyncStream<Element>
    public let continuation: AsyncStream<Element>.Continuation

    public init() { (stream, continuation) = AsyncStream.makeStream(of: Element.self) }

    public func send(_ element: Element) { continuation.yield(element) }
}

extension Feed where Element == Void {
    public func send() { continuation.yield(()) }
}

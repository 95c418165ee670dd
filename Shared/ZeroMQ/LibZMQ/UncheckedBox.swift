import Synchronization

/// Carries a non-Sendable value across a boundary its owner knows is safe.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

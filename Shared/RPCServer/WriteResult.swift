import Domain
import Wire

/// The result of a method that writes, when it can say that nothing
/// changed (a delete that found nothing): no change notice follows it.
public protocol WriteResult {
    var changedSomething: Bool { get }
}

extension DeleteResult: WriteResult {
    public var changedSomething: Bool { deleted }
}

extension SaveManyResult: WriteResult {
    public var changedSomething: Bool { saved > 0 }
}

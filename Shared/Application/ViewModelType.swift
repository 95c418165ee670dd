/// A view model turns what a view sends (Input: one stream of the
/// person's actions, in the order they acted) into what it shows (Output: a
/// stream of states). It never builds a view; it asks its coordinator to
/// navigate.
public protocol ViewModelType {
    associatedtype Input
    associatedtype Output
    func transform(input: Input) -> Output
}

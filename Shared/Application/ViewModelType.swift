/// A view model turns what a view sends (Input: async sequences of key
/// presses, text, taps) into what it shows (Output: async sequences of
/// state). It never builds a view; it asks its coordinator to navigate.
public protocol ViewModelType {
    associatedtype Input
    associatedtype Output
    func transform(input: Input) -> Output
}

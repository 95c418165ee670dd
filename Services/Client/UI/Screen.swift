import Application

/// One full-screen view. It only binds: keys become view-model inputs, and
/// the view model's state becomes lines. It never navigates by itself.
@MainActor
protocol Screen: AnyObject {
    var title: String { get }
    /// Key bindings for the footer.
    var keyHelp: String { get }
    /// Starts the view model.
    func start()
    /// Shown again after the screen above it closed.
    func reappear()
    func handle(_ key: Key)
    /// The body: at most `height` lines of at most `width` characters.
    func render(width: Int, height: Int) -> [String]
    func stop()
}

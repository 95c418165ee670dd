import Application

/// A new post: title, Tab, content, Ctrl-S to save; the screen closes once saved.
@MainActor
final class CreateScreen: StateScreen<CreatePostState>, Screen {
    let title = "New post"
    let keyHelp = "Tab next field  Ctrl-S save  Esc cancel"
    private let model: CreatePostViewModel
    private let titleText = Feed<String>(), contentText = Feed<String>(), save = Feed<Void>(), cancel = Feed<Void>()
    private var form = PostForm()
    /// Ctrl-S pressed before the view model had the last keystrokes.
    private var saveWaiting = false

    init(model: CreatePostViewModel, redraw: @escaping @MainActor () -> Void) {
        self.model = model
        super.init(initial: CreatePostState(), redraw: redraw)
    }

    func start() {
        observe(model.transform(input: .init(title: titleText.stream, content: contentText.stream, save: save.stream, cancel: cancel.stream)).state)
    }

    override func changed(from old: CreatePostState) {
        if saveWaiting && form.matches(title: state.title, content: state.content) {
            saveWaiting = false
            save.send()
        }
    }

    func handle(_ key: Key) {
        switch key {
        case .control("s"):
            if form.matches(title: state.title, content: state.content) { save.send() } else { saveWaiting = true }
        case .escape: cancel.send()
        default:
            switch form.handle(key) {
            case .title: titleText.send(form.title.text)
            case .content: contentText.send(form.content.text)
            case nil: redraw()  // the focus moved
            }
        }
    }

    func render(width: Int, height: Int) -> [String] {
        var lines: [String] = []
        if let error = state.error { lines.append(Style.error(Style.fit("! \(error)", width))) }
        return lines + form.render(width: width, height: height - lines.count, saveEnabled: state.saveEnabled, saving: state.isSaving)
    }
}

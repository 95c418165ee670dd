import Application

/// A new post: title, Tab, content, Ctrl-S to save; the screen closes once saved.
@MainActor
final class CreateScreen: StateScreen<CreatePostState>, Screen {
    let title = "New post"
    let keyHelp = "Tab next field  Ctrl-S save  Esc cancel"
    private let model: CreatePostViewModel
    private let actions = Feed<CreatePostViewModel.Action>()
    private var form = PostForm()

    init(model: CreatePostViewModel, redraw: @escaping @MainActor () -> Void) {
        self.model = model
        super.init(initial: CreatePostState(), redraw: redraw)
    }

    func start() {
        observe(model.transform(input: .init(actions: actions.stream)).state)
    }

    func handle(_ key: Key) {
        switch key {
        case .control("s"): actions.send(.save)  // after every keystroke before it: one ordered stream
        case .escape: actions.send(.cancel)
        default:
            switch form.handle(key) {
            case .title: actions.send(.title(form.title.text))
            case .content: actions.send(.content(form.content.text))
            case nil: redraw()  // the focus moved
            }
        }
    }

    func render(width: Int, height: Int) -> [String] {
        var lines: [String] = []
        if let problem = state.problem { lines.append(Style.problem(problem, width: width)) }
        return lines
            + form.render(
                width: width, height: height - lines.count, saveEnabled: state.saveEnabled, saving: state.isSaving,
                invalid: state.problem)
    }
}

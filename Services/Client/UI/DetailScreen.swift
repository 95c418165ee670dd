import Application
import Domain
import Foundation

/// One post; edit in place (e, then Ctrl-S saves), delete after confirming.
@MainActor
final class DetailScreen: StateScreen<PostDetailState>, Screen {
    let title = "Post"
    var keyHelp: String {
        if state.confirmingDelete { return "Delete this post?  y yes  n no" }
        if state.editing, state.problem == .conflict { return "Ctrl-R load the latest under your draft  Ctrl-S save  Esc cancel" }
        if state.editing { return "Tab next field  Ctrl-S save  Esc cancel" }
        return "e edit  d delete  ↑↓ scroll  Esc back"
    }
    private let model: PostDetailViewModel
    private let actions = Feed<PostDetailViewModel.Action>()
    private var form = PostForm()
    private var scroll = 0

    init(model: PostDetailViewModel, redraw: @escaping @MainActor () -> Void) {
        self.model = model
        super.init(initial: PostDetailState(), redraw: redraw)
    }

    func start() {
        observe(model.transform(input: .init(actions: actions.stream)).state)
        actions.send(.load)
    }

    override func changed(from old: PostDetailState) {
        if state.editing && !old.editing { form = PostForm(title: state.draftTitle, content: state.draftContent) }
    }

    func handle(_ key: Key) {
        if state.confirmingDelete {
            switch key {
            case .character("y"), .character("Y"): actions.send(.confirmDelete(true))
            case .character("n"), .character("N"), .escape: actions.send(.confirmDelete(false))
            default: break
            }
            return
        }
        if state.editing {
            switch key {
            case .control("s"): actions.send(.save)  // after every keystroke before it: one ordered stream
            case .control("r"): actions.send(.load)
            case .escape: actions.send(.cancelEdit)
            default:
                switch form.handle(key) {
                case .title: actions.send(.title(form.title.text))
                case .content: actions.send(.content(form.content.text))
                case nil: break
                }
            }
            return
        }
        switch key {
        case .character("e"): actions.send(.edit)
        case .character("d"), .delete: actions.send(.delete)
        case .escape, .character("q"), .left, .backspace: actions.send(.back)
        case .up, .character("k"): scroll = max(0, scroll - 1)
        case .down, .character("j"): scroll += 1
        case .character("r"): actions.send(.load)
        default: break
        }
    }

    func render(width: Int, height: Int) -> [String] {
        var lines: [String] = []
        if let problem = state.problem { lines.append(Style.problem(problem, width: width)) }
        if state.editing {
            if state.problem == .conflict {
                lines.append(
                    Style.dim(Style.fit("Your draft is kept: Ctrl-R loads the latest version under it, then Ctrl-S saves over that.", width)))
            }
            return lines
                + form.render(
                    width: width, height: height - lines.count, saveEnabled: state.saveEnabled, saving: state.isSaving,
                    invalid: state.problem)
        }
        guard let post = state.post else {
            if state.isLoading { lines.append("Loading…") }
            return lines
        }
        lines.append(Style.bold(Style.fit(post.title, width)))
        let updated = post.updateDate.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false))
        lines.append(Style.dim(Style.fit("updated \(updated)  uid \(post.uid.uuidString)", width)))
        lines.append("")
        let body = TextField(post.content, multiline: true).lines(width: width, focused: false)
        scroll = min(scroll, max(0, body.count - (height - lines.count)))
        lines += body.dropFirst(scroll)
        if state.confirmingDelete { lines.insert(Style.reverse(Style.fit("Delete “\(post.title)”? y / n", width)), at: 0) }
        return lines
    }
}

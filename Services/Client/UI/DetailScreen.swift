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
            if state.problem == .conflict { lines.append(Style.dim(Style.fit("Your draft is kept: Ctrl-R loads the latest version under it, then Ctrl-S saves over that.", width))) }
            return lines + form.render(width: width, height: height - lines.count, saveEnabled: state.saveEnabled, saving: state.isSaving,
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

/// The two fields of a post being written, and which has the focus.
struct PostForm {
    enum Field { case title, content }
    var title = TextField()
    var content = TextField(multiline: true)
    var focus = Field.title

    init(title: String = "", content: String = "") {
        self.title = TextField(title)
        self.content = TextField(content, multiline: true)
    }

    /// Applies a key; returns the field whose text changed.
    mutating func handle(_ key: Key) -> Field? {
        switch key {
        case .tab, .backTab:
            focus = focus == .title ? .content : .title
            return nil
        case .enter where focus == .title:
            focus = .content
            return nil
        default:
            let before = focus == .title ? title.text : content.text
            _ = focus == .title ? title.handle(key) : content.handle(key)
            let after = focus == .title ? title.text : content.text
            return before == after ? nil : focus
        }
    }

    /// At most `height` lines; the content scrolls to keep its cursor in view.
    /// An invalid field's rule is shown under that field.
    func render(width: Int, height: Int, saveEnabled: Bool, saving: Bool, invalid problem: Problem?) -> [String] {
        var invalid: InvalidField? { if case .invalid(let field)? = problem { field } else { nil } }
        var lines = [focus == .title ? Style.bold("Title") : "Title"]
        lines += title.lines(width: width, focused: focus == .title)
        if let invalid, invalid.field == "title" { lines.append(Style.error(Style.fit("  ↑ \(invalid.rule)", width))) }
        lines.append("")
        lines.append(focus == .content ? Style.bold("Content") : "Content")
        if let invalid, invalid.field == "content" { lines.append(Style.error(Style.fit("  ↓ \(invalid.rule)", width))) }
        let footer = saving ? "Saving…" : saveEnabled ? "Ctrl-S saves" : Style.dim(Style.fit("A title of 1 to 200 characters is needed to save", width))
        let room = max(1, height - lines.count - 2)
        let (body, cursorLine) = content.layout(width: width, focused: focus == .content)
        let top = min(max(0, cursorLine - room + 1), max(0, body.count - room))
        lines += body.dropFirst(focus == .content ? top : 0).prefix(room)
        lines += ["", footer]
        return lines
    }
}

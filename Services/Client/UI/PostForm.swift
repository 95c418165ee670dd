import Application
import Domain

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
        // The service names a field where it is in its request (`post.title`).
        func isInvalid(_ field: String) -> Bool { invalid.map { $0.field == field || $0.field.hasSuffix(".\(field)") } ?? false }
        var lines = [focus == .title ? Style.bold("Title") : "Title"]
        lines += title.lines(width: width, focused: focus == .title)
        if let invalid, isInvalid("title") { lines.append(Style.error(Style.fit("  ↑ \(invalid.rule)", width))) }
        lines.append("")
        lines.append(focus == .content ? Style.bold("Content") : "Content")
        if let invalid, isInvalid("content") { lines.append(Style.error(Style.fit("  ↓ \(invalid.rule)", width))) }
        let footer =
            saving ? "Saving…" : saveEnabled ? "Ctrl-S saves" : Style.dim(Style.fit("A title of 1 to 200 characters is needed to save", width))
        let room = max(1, height - lines.count - 2)
        let (body, cursorLine) = content.layout(width: width, focused: focus == .content)
        let top = min(max(0, cursorLine - room + 1), max(0, body.count - room))
        lines += body.dropFirst(focus == .content ? top : 0).prefix(room)
        lines += ["", footer]
        return lines
    }
}

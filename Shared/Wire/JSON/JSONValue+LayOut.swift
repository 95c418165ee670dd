extension JSONValue {
    /// Writes this value laid out for people: one member or element per
    /// line, two spaces per level, an object's keys sorted, `"key" : value`
    /// (as Foundation's pretty printing has it); strings and numbers as
    /// the writer writes them.
    func layOut(into text: inout JSONText, indent: Int) {
        func newline(_ level: Int) {
            text.append(CollectionOfOne(UInt8(ascii: "\n")))
            text.append(repeatElement(UInt8(ascii: " "), count: 2 * level))
        }
        switch self {
        case .null: text.append(JSONText.null)
        case .bool(let flag): text.append(flag ? JSONText.true : JSONText.false)
        case .integer(let value): text.append(String(value).utf8)
        case .number(let value): text.append(Self.render(value).utf8)
        case .string(let value): text.writeString(value)
        case .array(let elements):
            guard !elements.isEmpty else { return text.append("[]".utf8) }
            text.append(CollectionOfOne(UInt8(ascii: "[")))
            for (index, element) in elements.enumerated() {
                if index > 0 { text.append(CollectionOfOne(UInt8(ascii: ","))) }
                newline(indent + 1)
                element.layOut(into: &text, indent: indent + 1)
            }
            newline(indent)
            text.append(CollectionOfOne(UInt8(ascii: "]")))
        case .object(let members):
            guard !members.isEmpty else { return text.append("{}".utf8) }
            text.append(CollectionOfOne(UInt8(ascii: "{")))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { text.append(CollectionOfOne(UInt8(ascii: ","))) }
                newline(indent + 1)
                text.writeString(key)
                text.append(" : ".utf8)
                members[key]!.layOut(into: &text, indent: indent + 1)
            }
            newline(indent)
            text.append(CollectionOfOne(UInt8(ascii: "}")))
        }
    }
}

/// `posts.changes`' result read in the pass that checks the reply
/// (`JSONDirectRead`): each member once, of its type, or nil and the
/// Decoder reads it.
extension ChangesResult: JSONDirectRead {
    static func read(from parser: inout JSONParser, depth: Int) throws(JSONParser.Failure) -> ChangesResult? {
        var (changes, head, database): ([ChangeDTO]?, Int64?, String??) = (nil, nil, nil)
        let shaped = try parser.directObject(depth: depth + 1) { parser, name throws(JSONParser.Failure) in
            switch name {
            case "changes" where changes == nil:
                changes = try parser.directArray(depth: depth + 2) { parser throws(JSONParser.Failure) in
                    try ChangeDTO.read(from: &parser, depth: depth + 2)
                }
                return changes != nil
            case "head" where head == nil:
                head = try parser.directInteger()
                return head != nil
            case "database" where database == nil:
                database = try parser.directOptionalString()
                return database != nil
            default: return false
            }
        }
        guard shaped, let changes, let head else { return nil }
        return ChangesResult(changes: changes, head: head, database: database ?? nil)
    }
}

extension ChangeDTO: JSONDirectRead {
    static func read(from parser: inout JSONParser, depth: Int) throws(JSONParser.Failure) -> ChangeDTO? {
        var (sequence, uid, kind, post): (Int64?, String?, String?, PostDTO??) = (nil, nil, nil, nil)
        let shaped = try parser.directObject(depth: depth + 1) { parser, name throws(JSONParser.Failure) in
            switch name {
            case "sequence" where sequence == nil:
                sequence = try parser.directInteger()
                return sequence != nil
            case "uid" where uid == nil:
                uid = try parser.directString()
                return uid != nil
            case "kind" where kind == nil:
                kind = try parser.directString()
                return kind != nil
            case "post" where post == nil:
                parser.skipSpace()
                if parser.peek == UInt8(ascii: "n") {
                    try parser.literal("null")
                    post = .some(nil)
                } else {
                    post = try PostDTO.read(from: &parser, depth: depth + 1).map { .some($0) }
                }
                return post != nil
            default: return false
            }
        }
        guard shaped, let sequence, let uid, let kind else { return nil }
        return ChangeDTO(sequence: sequence, uid: uid, kind: kind, post: post ?? nil)
    }
}

extension PostDTO: JSONDirectRead {
    static func read(from parser: inout JSONParser, depth: Int) throws(JSONParser.Failure) -> PostDTO? {
        var (uid, title, content, created, updated): (String?, String?, String?, String??, String??) = (nil, nil, nil, nil, nil)
        let shaped = try parser.directObject(depth: depth + 1) { parser, name throws(JSONParser.Failure) in
            switch name {
            case "uid" where uid == nil:
                uid = try parser.directString()
                return uid != nil
            case "title" where title == nil:
                title = try parser.directString()
                return title != nil
            case "content" where content == nil:
                content = try parser.directString()
                return content != nil
            case "createDate" where created == nil:
                created = try parser.directOptionalString()
                return created != nil
            case "updateDate" where updated == nil:
                updated = try parser.directOptionalString()
                return updated != nil
            default: return false
            }
        }
        guard shaped, let uid, let title, let content else { return nil }
        return PostDTO(uid: uid, title: title, content: content, createDate: created ?? nil, updateDate: updated ?? nil)
    }
}

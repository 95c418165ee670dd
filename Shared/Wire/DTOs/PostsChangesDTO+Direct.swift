/// `posts.changes`' result read in the pass that checks the reply
/// (`JSONDirectRead`): each member once, of its type, or nil and the
/// Decoder reads it.
extension ChangesResult: JSONDirectRead {
    static func read(from parser: inout JSONParser, depth: Int) throws(JSONParser.Failure) -> ChangesResult? {
        var (changes, head, database): ([ChangeDTO]?, Int64?, String??) = (nil, nil, nil)
        let shaped = try parser.directObject(depth: depth + 1) { parser, name throws(JSONParser.Failure) in
            switch name {
            case "changes":
                try parser.directOnce(into: &changes) { parser throws(JSONParser.Failure) in
                    try parser.directArray(depth: depth + 2) { parser throws(JSONParser.Failure) in
                        try ChangeDTO.read(from: &parser, depth: depth + 2)
                    }
                }
            case "head": try parser.directOnce(into: &head) { parser throws(JSONParser.Failure) in try parser.directInteger() }
            case "database": try parser.directOnce(into: &database) { parser throws(JSONParser.Failure) in try parser.directOptionalString() }
            default: false
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
            case "sequence": try parser.directOnce(into: &sequence) { parser throws(JSONParser.Failure) in try parser.directInteger() }
            case "uid": try parser.directOnce(into: &uid) { parser throws(JSONParser.Failure) in try parser.directString() }
            case "kind": try parser.directOnce(into: &kind) { parser throws(JSONParser.Failure) in try parser.directString() }
            case "post":
                try parser.directOnce(into: &post) { parser throws(JSONParser.Failure) in
                    try parser.directNullable { parser throws(JSONParser.Failure) in try PostDTO.read(from: &parser, depth: depth + 1) }
                }
            default: false
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
            case "uid": try parser.directOnce(into: &uid) { parser throws(JSONParser.Failure) in try parser.directString() }
            case "title": try parser.directOnce(into: &title) { parser throws(JSONParser.Failure) in try parser.directString() }
            case "content": try parser.directOnce(into: &content) { parser throws(JSONParser.Failure) in try parser.directString() }
            case "createDate": try parser.directOnce(into: &created) { parser throws(JSONParser.Failure) in try parser.directOptionalString() }
            case "updateDate": try parser.directOnce(into: &updated) { parser throws(JSONParser.Failure) in try parser.directOptionalString() }
            default: false
            }
        }
        guard shaped, let uid, let title, let content else { return nil }
        return PostDTO(uid: uid, title: title, content: content, createDate: created ?? nil, updateDate: updated ?? nil)
    }
}

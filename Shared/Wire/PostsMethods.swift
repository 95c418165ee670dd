/// Method names, one place, as docs/PROTOCOL.md lists them.
public enum PostsMethod {
    public static let service = "posts"
    public static let list = "posts.list"
    public static let get = "posts.get"
    public static let save = "posts.save"
    public static let saveMany = "posts.saveMany"
    public static let delete = "posts.delete"
    public static let changes = "posts.changes"
    public static let health = "posts.health"
}

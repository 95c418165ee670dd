/// The `posts` service's methods (docs/PROTOCOL.md).
public enum PostsMethod {
    public static let service = "posts"
    public static let list = RPCMethod<ListParams, PageResult>("posts.list", service: service, defaultParams: ListParams())
    public static let get = RPCMethod<UIDParams, PostDTO>("posts.get", service: service)
    public static let save = RPCMethod<SaveParams, PostDTO>("posts.save", service: service, writes: true)
    public static let saveMany = RPCMethod<SaveManyParams, SaveManyResult>("posts.saveMany", service: service, writes: true)
    public static let delete = RPCMethod<UIDParams, DeleteResult>("posts.delete", service: service, writes: true)
    public static let changes = RPCMethod<ChangesParams, ChangesResult>("posts.changes", service: service)
    public static let health = RPCMethod<NoParams, HealthResult>("posts.health", service: service)
}

/// What a platform adapts: the ports Domain's interactors run on. A
/// platform (LocalPlatform, NetworkPlatform, …) makes one; nothing else
/// about it is public.
public struct Platform: Sendable {
    public var store: any PostStore
    public var feed: any ChangeFeed
    public var search: any SearchEngine
    /// Set when `search` is an index this process keeps, to be brought up to
    /// date before each search (a local file's); nil when someone else keeps it.
    public var searchSync: IndexSync?
    public var status: any StatusSource
    public var watch: any PostsWatchUseCase

    public init(
        store: any PostStore, feed: any ChangeFeed, search: any SearchEngine, searchSync: IndexSync? = nil,
        status: any StatusSource, watch: any PostsWatchUseCase
    ) {
        (self.store, self.feed, self.search, self.searchSync) = (store, feed, search, searchSync)
        (self.status, self.watch) = (status, watch)
    }
}

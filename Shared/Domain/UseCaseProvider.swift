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

/// The use cases, as interactors over one platform's ports: what a
/// composition root hands to view models, commands and routers.
public struct UseCaseProvider: Sendable {
    public let platform: Platform

    public init(_ platform: Platform) { self.platform = platform }

    public func makePostsUseCase() -> any PostsUseCase { PostsInteractor(store: platform.store) }
    public func makePostChangesUseCase() -> any PostChangesUseCase { ChangesInteractor(feed: platform.feed) }
    public func makeSearchUseCase() -> any SearchUseCase { SearchInteractor(engine: platform.search, sync: platform.searchSync) }
    public func makeStatusUseCase() -> any StatusUseCase { StatusInteractor(source: platform.status) }
    public func makeWatchUseCase() -> any PostsWatchUseCase { platform.watch }

    /// Brings a search index this process keeps up to date now (after an
    /// import, so the first search is quick); nothing to do otherwise.
    public func prepareSearch() async throws(PostsError) {
        if let sync = platform.searchSync { try await sync.catchUp() }
    }
}

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

    /// Brings a search index this process keeps up to date now, and has it
    /// keep its ranking for the next process (after an import, so the first
    /// search, in this process or the next, is quick); nothing to do otherwise.
    public func prepareSearch() async throws(PostsError) {
        if let sync = platform.searchSync { try await sync.prepare() }
    }
}

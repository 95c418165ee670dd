/// The `search` service's methods (docs/PROTOCOL.md).
public enum SearchMethod {
    public static let service = "search"
    public static let query = RPCMethod<SearchParams, SearchResultDTO>("search.query", service: service)
    public static let stats = RPCMethod<NoParams, SearchStatsResult>("search.stats", service: service)
    public static let health = RPCMethod<NoParams, HealthResult>("search.health", service: service)

    /// Every method's name, as `--help` lists them (a router test holds
    /// this to what search-service serves).
    public static let names = [query.name, stats.name, health.name]
}

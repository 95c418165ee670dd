import Observability

extension Settings {
    /// Where to serve metrics (`--metrics`, else POSTS_METRICS); nil, the
    /// default, serves none.
    public func metricsAddress(_ flag: String?) throws -> MetricsAddress? {
        guard let text = flag ?? environment["POSTS_METRICS"], !text.isEmpty else { return nil }
        switch MetricsAddress.parse(text) {
        case .success(let address): return address
        case .failure(let error): throw ConfigurationError("POSTS_METRICS / --metrics: \(error)")
        }
    }
}

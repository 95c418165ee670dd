import Domain

// The document's schemas made from Domain's values: what each answer says.

extension Components.Schemas.Post {
    init(_ post: Post) {
        self.init(
            uid: post.uid.text, title: post.title, content: post.content, createDate: PostDate.format(post.createDate),
            updateDate: PostDate.format(post.updateDate))
    }
}

extension Components.Schemas.PostsPage {
    init(_ page: PostsPage) {
        self.init(posts: page.posts.map(Components.Schemas.Post.init), nextCursor: page.nextCursor)
    }
}

extension Components.Schemas.SearchResults {
    init(_ results: SearchResults) {
        self.init(
            hits: results.hits.map { hit in
                .init(
                    uid: hit.uid.text, title: hit.title, snippet: hit.snippet,
                    highlights: hit.highlights.map { .init(start: Int64($0.lowerBound), length: Int64($0.count)) }, score: hit.score)
            }, total: Int64(results.total), exact: results.totalIsExact)
    }
}

extension Components.Schemas.Status {
    init(_ status: SystemStatus) {
        self.init(
            source: status.source, uptimeSeconds: status.uptimeSeconds, posts: status.posts.map(Int64.init),
            services: status.services.map { service in
                .init(
                    name: service.name, processes: Int64(service.processes), sessions: Int64(service.sessions), queued: Int64(service.queued),
                    requests: Int64(service.requests), refused: Int64(service.refused), p50Milliseconds: service.p50Milliseconds,
                    p99Milliseconds: service.p99Milliseconds)
            },
            processes: status.processes.map { process in
                .init(
                    service: process.service, pid: process.pid, name: process.name, sessions: Int64(process.sessions), busy: Int64(process.busy),
                    handled: Int64(process.handled), silentMilliseconds: process.silentMilliseconds, gateways: process.gateways)
            },
            searchIndexes: status.searchIndexes.map { index in
                .init(pid: index.pid, documents: Int64(index.documents), applied: index.applied, head: index.head, lag: index.lag)
            },
            methods: status.methods.map { method in
                .init(
                    service: method.service, method: method.method, requests: Int64(method.requests), errors: Int64(method.errors),
                    p50Milliseconds: method.p50Milliseconds, p99Milliseconds: method.p99Milliseconds)
            },
            gateways: status.gateways.map { gateway in
                .init(endpoint: gateway.endpoint, up: gateway.up, inUse: gateway.inUse, uptimeSeconds: gateway.uptimeSeconds)
            })
    }
}

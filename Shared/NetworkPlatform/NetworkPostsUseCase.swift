import Domain
import Foundation
import Wire

/// Domain.PostsUseCase as requests to the `posts` service.
struct NetworkPostsUseCase: PostsUseCase {
    let gateway: GatewayConnection

    func posts(limit: Int, cursor: String?) async throws(PostsError) -> PostsPage {
        try await gateway.call(PostsMethod.service, PostsMethod.list, ListParams(limit: limit, cursor: cursor), as: PageResult.self).toDomain()
    }

    func post(uid: UUID) async throws(PostsError) -> Post {
        try await gateway.call(PostsMethod.service, PostsMethod.get, UIDParams(uid: uid.uuidString), as: PostDTO.self).toDomain()
    }

    func save(_ post: Post) async throws(PostsError) -> Post {
        let valid = try PostRules.validated(post)
        return try await gateway.call(PostsMethod.service, PostsMethod.save, SaveParams(post: PostDTO(domain: valid)), as: PostDTO.self).toDomain()
    }

    func save(_ post: Post, ifUnchangedSince readUpdateDate: Date) async throws(PostsError) -> Post {
        let valid = try PostRules.validated(post)
        let params = SaveParams(post: PostDTO(domain: valid), ifUnchangedSince: WireDate.format(readUpdateDate))
        return try await gateway.call(PostsMethod.service, PostsMethod.save, params, as: PostDTO.self).toDomain()
    }

    /// Sends `posts.saveMany` calls of at most 1000 posts and
    /// `PostRules.maxPageBytes` of text each, inside the gateway's frame limit.
    func save(_ posts: [Post]) async throws(PostsError) -> Int {
        var saved = 0
        var batch: [PostDTO] = []
        var bytes = 0
        for post in posts {
            let valid = try PostRules.validated(post)
            let size = valid.title.utf8.count + valid.content.utf8.count
            if !batch.isEmpty, batch.count == PostsMethod.saveManyLimit || bytes + size > PostRules.maxPageBytes {
                saved += try await send(batch)
                batch.removeAll(keepingCapacity: true)
                bytes = 0
            }
            batch.append(PostDTO(domain: valid))
            bytes += size
        }
        if !batch.isEmpty { saved += try await send(batch) }
        return saved
    }

    private func send(_ batch: [PostDTO]) async throws(PostsError) -> Int {
        try await gateway.call(PostsMethod.service, PostsMethod.saveMany, SaveManyParams(posts: batch), as: SaveManyResult.self).saved
    }

    func delete(uid: UUID) async throws(PostsError) -> Bool {
        try await gateway.call(PostsMethod.service, PostsMethod.delete, UIDParams(uid: uid.uuidString), as: DeleteResult.self).deleted
    }
}

struct NetworkPostChangesUseCase: PostChangesUseCase {
    let gateway: GatewayConnection

    func changes(after sequence: Int64, limit: Int) async throws(PostsError) -> PostChanges {
        try await gateway.call(PostsMethod.service, PostsMethod.changes, ChangesParams(after: sequence, limit: limit), as: ChangesResult.self).toDomain()
    }

    func head() async throws(PostsError) -> Int64 {
        try await changes(after: Int64.max, limit: 1).head
    }
}

struct NetworkStatusUseCase: StatusUseCase {
    let gateway: GatewayConnection

    func status() async throws(PostsError) -> SystemStatus {
        let status = try await gateway.call("mmi.status", "mmi.status", JSONValue?.none, as: GatewayStatus.self)
        let sessions = status.workers.filter { $0.service == SearchMethod.service }
        return SystemStatus(
            source: gateway.endpoint, uptimeSeconds: status.uptimeSeconds,
            services: status.services.map {
                SystemStatus.Service(name: $0.name, workers: $0.workers, queued: $0.queued, requests: $0.requests,
                                     errors: $0.refused, p50Milliseconds: $0.latency?.p50Ms, p99Milliseconds: $0.latency?.p99Ms)
            },
            workers: status.workers.map {
                SystemStatus.Worker(service: $0.service, identity: $0.identity, busy: $0.state == "busy",
                                    handled: $0.handled, lastHeardMilliseconds: $0.lastHeardMs)
            },
            posts: nil,
            searchIndexes: await searchIndexes(sessions: sessions)
        )
    }

    /// MDP cannot address one worker, but the gateway hands each request to
    /// the least recently used one, and our workers name their connections
    /// `<pid>.<random>`: ask until every process listed has answered, at
    /// most three asks per session. Answers are grouped by process.
    private func searchIndexes(sessions: [GatewayStatus.Worker]) async -> [SystemStatus.SearchIndex] {
        let expected = Set(sessions.compactMap { Int32($0.identity.prefix { $0 != "." }) })
        var byWorker: [Int32: SystemStatus.SearchIndex] = [:]
        // Workers named otherwise cannot be told apart: one ask per session.
        let asks = expected.isEmpty ? sessions.count : sessions.count * 3
        for _ in 0..<asks {
            guard let stats = try? await gateway.call(SearchMethod.service, SearchMethod.stats, JSONValue?.none, as: SearchStatsResult.self)
            else { break }
            byWorker[stats.worker] = SystemStatus.SearchIndex(worker: stats.worker, documents: stats.documents, applied: stats.applied, lag: stats.lag)
            if !expected.isEmpty && expected.isSubset(of: byWorker.keys) { break }
        }
        return byWorker.values.sorted { $0.worker < $1.worker }
    }
}

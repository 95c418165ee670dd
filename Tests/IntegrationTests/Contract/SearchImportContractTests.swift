import Domain
import Foundation
import Testing

/// Search, import and status, stated once and run on every platform.
@Suite("Search and import use-case contract", .timeLimit(.minutes(5)))
struct SearchImportContractTests {
    /// Searches until `expected` hits are found (search workers apply a
    /// write within milliseconds; a local index catches up before answering).
    private func titles(_ search: any SearchUseCase, _ query: String, expecting expected: Int) async throws -> [String] {
        var last: [String] = []
        for _ in 0..<100 {
            last = try await search.search(query, limit: 20, offset: 0).hits.map(\.title)
            if last.count == expected { return last }
            try await Task.sleep(for: .milliseconds(50))
        }
        return last
    }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_searchFindsWords_theLastAsAPrefix_andFollowsEditsAndDeletes(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            let posts = provider.makePostsUseCase()
            let search = provider.makeSearchUseCase()
            let zebra = try await posts.save(.stub(title: "Running zebras", content: "stripes at dawn"), key: nil)
            _ = try await posts.save(.stub(title: "Quiet giraffe", content: "tall"), key: nil)
            #expect(try await titles(search, "zebr", expecting: 1) == ["Running zebras"])
            #expect(try await titles(search, "runni", expecting: 1) == ["Running zebras"], "an unfinished word longer than its stem")
            _ = try await posts.edit(zebra, title: "Running horses", content: nil, key: nil)
            #expect(try await titles(search, "zebr", expecting: 0).isEmpty)
            _ = try await posts.delete(uid: zebra.uid, key: nil)
            #expect(try await titles(search, "horses", expecting: 0).isEmpty)
        }
    }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_anOverlongQueryOrOffsetIsRefusedNamingIt(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            let search = provider.makeSearchUseCase()
            let long = String(repeating: "a", count: SearchRules.maxQueryLength + 1)
            #expect(
                await postsError { _ = try await search.search(long, limit: 10, offset: 0) }
                    == .invalid("q", .tooLong(max: SearchRules.maxQueryLength, actual: SearchRules.maxQueryLength + 1, unit: .characters)))
            #expect(
                await postsError { _ = try await search.search("a", limit: 10, offset: 10_001) }
                    == .invalid("offset", .outOfRange(min: 0, max: 10_000, actual: "10001")))
        }
    }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_importKeepsTheLastEntryOfAUID_andTheSampleShapeDuplicatesNothingWhenImportedAgain(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            let posts = provider.makePostsUseCase()
            let uid = UUID().uuidString
            let entries = [
                ImportEntry(label: "line 1", userId: 1, id: 1, title: "sample", body: "from the sample shape"),
                ImportEntry(label: "line 2", uid: uid, title: "first"),
                ImportEntry(label: "line 3", uid: uid, title: "second"),
            ]
            #expect(try await posts.importPosts(entries) { _, _ in } == 2)
            #expect(try await posts.importPosts(entries) { _, _ in } == 2)
            let all = try await allPages(posts, limit: 100).flatMap { $0 }
            #expect(all.map(\.title).sorted() == ["sample", "second"])
            #expect(all.first { $0.title == "sample" }?.content == "from the sample shape")
        }
    }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_anImportWithOneBadEntryWritesNothing_andNamesTheEntry(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            let posts = provider.makePostsUseCase()
            let entries =
                (1...1500).map { ImportEntry(label: "line \($0)", title: "post \($0)") }
                + [ImportEntry(label: "line 1501", content: "no title")]
            #expect(await postsError { _ = try await posts.importPosts(entries) { _, _ in } } == .invalid("line 1501.title", .missing))
            #expect(try await posts.posts(limit: 10, cursor: nil).posts.isEmpty)
            let saved = try await posts.importPosts(Array(entries.dropLast())) { _, _ in }
            #expect(saved == 1500, "more than one batch")
            #expect(try await allPages(posts, limit: 500).flatMap { $0 }.count == 1500)
        }
    }

    @Test(arguments: ContractPlatform.allCases)
    func test_contract_statusNamesWhereTheAnswerCameFrom(_ platform: ContractPlatform) async throws {
        try await platform.run { provider async throws in
            _ = try await provider.makePostsUseCase().save(.stub(), key: nil)
            let status = try await provider.makeStatusUseCase().status()
            switch platform {
            case .local:
                #expect(status.source.hasSuffix("posts.sqlite") && status.posts == 1)
            case .postgres:
                #expect(status.source.hasPrefix("postgres://posts@127.0.0.1:") && status.posts == 1, "\(status.source)")
            case .network:
                #expect(status.source.hasPrefix("ipc://"))
                #expect(Set(status.services.map(\.name)).isSuperset(of: ["posts", "search"]))
                #expect(status.searchIndexes.count == 1 && status.processes.contains { $0.service == "posts" && $0.pid != nil })
            }
        }
    }
}

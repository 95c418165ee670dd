import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

public struct SearchParams: Codable, Sendable {
    public var q: String
    public var limit: Int?
    public var offset: Int?
    public init(q: String, limit: Int? = nil, offset: Int? = nil) { (self.q, self.limit, self.offset) = (q, limit, offset) }
}

/// The result of `search.query`: a page of hits, how many match, the
/// change sequence the answering index had applied, and which process
/// answered.
public struct SearchResultDTO: Codable, Sendable, Equatable {
    public var hits: [SearchHitDTO]
    /// At least this many when `totalIsExact` is false.
    public var total: Int
    public var totalIsExact: Bool
    /// The change sequence the answering index had applied.
    public var sequence: Int64
    /// The answering process's id.
    public var pid: Int32

    public init(domain results: SearchResults, pid: Int32) {
        (total, totalIsExact, sequence, self.pid) = (results.total, results.totalIsExact, results.sequence, pid)
        hits = results.hits.map(SearchHitDTO.init(domain:))
    }

    public func toDomain() throws(PostsError) -> SearchResults {
        var domain: [SearchHit] = []
        domain.reserveCapacity(hits.count)
        for (index, hit) in hits.enumerated() { domain.append(try hit.toDomain(field: "hits[\(index)]")) }
        return SearchResults(hits: domain, total: total, totalIsExact: totalIsExact, sequence: sequence)
    }
}

/// A search hit on the wire: `highlights` are `[start, end]` pairs, in
/// Unicode scalars of `snippet`, start inclusive and end exclusive.
public struct SearchHitDTO: Codable, Sendable, Equatable {
    public var uid: String
    public var title: String
    public var snippet: String
    public var highlights: [Range<Int>]
    public var score: Double

    public init(domain hit: SearchHit) {
        (uid, title, snippet, highlights, score) = (hit.uid.text, hit.title, hit.snippet, hit.highlights, hit.score)
    }

    public func toDomain(field: String) throws(PostsError) -> SearchHit {
        SearchHit(uid: try PostRules.uid(uid, field: "\(field).uid"), title: title, snippet: snippet, highlights: highlights, score: score)
    }

    enum CodingKeys: String, CodingKey { case uid, title, snippet, highlights, score }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        uid = try container.decode(String.self, forKey: .uid)
        title = try container.decode(String.self, forKey: .title)
        snippet = try container.decode(String.self, forKey: .snippet)
        score = try container.decode(Double.self, forKey: .score)
        highlights = try container.decode([[Int]].self, forKey: .highlights).map { pair in
            guard pair.count == 2, pair[0] >= 0, pair[0] <= pair[1] else {
                throw DecodingError.dataCorruptedError(
                    forKey: .highlights, in: container,
                    debugDescription: "a highlight is [start, end] with 0 <= start <= end")
            }
            return pair[0]..<pair[1]
        }
    }

    /// Written by `JSONWriter` (a page of hits per query), the members go
    /// straight to the text, the highlights without two containers each.
    public func encode(to encoder: any Encoder) throws {
        if let stream = encoder as? JSONStreamEncoder {
            let output = stream.output, depth = stream.depth
            output.openContainer(UInt8(ascii: "{"), UInt8(ascii: "}"), depth: depth)
            output.beginMember(plain: "uid", depth: depth + 1)
            output.writeString(uid)
            output.beginMember(plain: "title", depth: depth + 1)
            output.writeString(title)
            output.beginMember(plain: "snippet", depth: depth + 1)
            output.writeString(snippet)
            output.beginMember(plain: "highlights", depth: depth + 1)
            output.writeRanges(highlights)
            output.beginMember(plain: "score", depth: depth + 1)
            try output.writeDouble(score, stream.codingPath + [CodingKeys.score])
            output.close(deeperThan: depth)
            return
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uid, forKey: .uid)
        try container.encode(title, forKey: .title)
        try container.encode(snippet, forKey: .snippet)
        try container.encode(highlights.map { [$0.lowerBound, $0.upperBound] }, forKey: .highlights)
        try container.encode(score, forKey: .score)
    }
}

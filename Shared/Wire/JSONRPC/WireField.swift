import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Field names: Domain says `title`, `posts[3].uid`; the wire says where
/// in the request it is, `params.title`, `params.posts[3].uid`. The
/// request key is Domain's `requestKey` and the wire's
/// `params._meta.requestKey`: a use case names it so whichever write it
/// refuses.
enum WireField {
    static let requestKey = "params.\(RequestMeta.member).\(RequestMeta.CodingKeys.requestKey.rawValue)"

    static func isInParams(_ field: String) -> Bool {
        field == "params" || field.hasPrefix("params.") || field.hasPrefix("params[")
    }

    static func onWire(_ field: String) -> String {
        if field == RequestKey.field { return requestKey }
        return isInParams(field) ? field : "params.\(field)"
    }

    static func inDomain(_ field: String) -> String {
        if field == requestKey { return RequestKey.field }
        return field.hasPrefix("params.") ? String(field.dropFirst("params.".count)) : field
    }
}

import Tracing
import Wire

struct MetaExtractor: Extractor {
    func extract(key: String, from carrier: RequestMeta) -> String? {
        switch RequestMeta.CodingKeys(rawValue: key.lowercased()) {
        case .traceparent: carrier.traceparent
        case .tracestate: carrier.tracestate
        default: nil
        }
    }
}

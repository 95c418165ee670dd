import Logging
import OTel
import ServiceLifecycle
import Tracing

/// Reads trace context from a dictionary.
struct DictionaryExtractor: Extractor {
    func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
}

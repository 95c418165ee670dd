import Domain
import Foundation
import Logging

enum StoredUID {
    static let logger = Logger(label: "posts.sqlite")

    static func parse(_ text: String, sequence: Int64) -> UUID? {
        guard let uid = UUID(text: text) else {
            logger.warning("skipping a stored row whose uid is not a UUID", metadata: ["uid": "\(text)", "sequence": "\(sequence)"])
            return nil
        }
        return uid
    }
}

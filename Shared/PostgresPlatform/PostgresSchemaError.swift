import Foundation
import Logging
import PostgresNIO

struct PostgresSchemaError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

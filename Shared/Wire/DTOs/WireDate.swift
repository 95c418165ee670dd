import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Dates on the wire are Domain's: ISO 8601 in UTC, exact to the millisecond
/// from 0001-01-01 to 9999-12-31 (`PostDate`).
public enum WireDate {
    public static func format(_ date: Date) -> String { PostDate.format(date) }

    public static func parse(_ text: String, field: @autoclosure () -> String) throws(PostsError) -> Date {
        try PostDate.parse(text, field: field())
    }
}

import Domain
@testable import LocalPlatform
@testable import Search
import TestSupport
import TestTraits
import Testing

/// What a person types, as the terms ranking takes (shown as the FTS5
/// expression the reference ranking of the tests matches them with).
@Suite("Search query building", .ownThread, .timeLimit(.minutes(5)))
struct SearchQueryTests {
    @Test(arguments: [
        ("hello wor", #""hello" AND "wor" *"#),
        (#""exact phrase" more"#, #""exact phrase" AND "more" *"#),
        (#"more "exact phrase""#, #""more" AND "exact phrase""#),
        ("a OR b NOT c", #""a" AND "OR" AND "b" AND "NOT" AND "c" *"#),
        ("title:secret", #""title" AND "secret" *"#),
        (#"say "unclosed phrase"#, #""say" AND "unclosed phrase""#),
        ("naïve café 42", #""naïve" AND "café" AND "42" *"#),
        ("swift Ⓐ", #""swift" *"#),  // a symbol, not a letter: FTS5 separates on it too
    ])
    func test_whatAPersonTypesBecomesQuotedTerms(_ text: String, _ expression: String) async {
        #expect(SearchQuery.expression(for: SearchQuery.terms(in: text)) == expression)
    }

    @Test(arguments: ["", "   ", "***", #""""#, "--", "()"])
    func test_textWithNoWordsSearchesForNothing(_ text: String) async {
        #expect(SearchQuery.terms(in: text).isEmpty)
    }
}

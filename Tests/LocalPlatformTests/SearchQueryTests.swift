import Domain
@testable import LocalPlatform
import Testing

@Suite("Search query building")
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
    func test_whatAPersonTypesBecomesQuotedTerms(_ text: String, _ expression: String) {
        #expect(SearchQuery.expression(for: text) == expression)
    }

    @Test func test_anUnfinishedLastWordAlsoMatchesItsCompletionsAsWholeWords() {
        let terms = SearchQuery.terms(in: "rain runni")
        #expect(
            SearchQuery.expression(for: terms, completions: ["running", "runnings"])
                == #""rain" AND ("runni" * OR "running" OR "runnings")"#)
        #expect(SearchQuery.folded("Café") == "cafe", "as unicode61 indexes it")
    }

    @Test(arguments: ["", "   ", "***", #""""#, "--", "()"])
    func test_textWithNoWordsSearchesForNothing(_ text: String) {
        #expect(SearchQuery.expression(for: text) == nil)
    }
}

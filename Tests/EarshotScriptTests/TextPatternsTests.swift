import Foundation
import Testing

@testable import EarshotScript

/// Checks' compiled patterns and the parser's trimming answer what Foundation's string methods answer.
@Suite struct TextPatternsTests {
    @Test(arguments: [
        ("results? updated", "Results updated"), ("^Results", "3 results"), ("updated$", "Results updated."),
        ("\\d+ items?", "You have 12 items"), ("café", "CAFÉ au lait"), ("[", "anything"), ("(a|b", "a"),
        ("^$", ""), ("x", ""), ("👩‍👧 family", "a 👩‍👧 FAMILY"), ("\\bcart\\b", "Cart: 2"), ("cart", "Basket"),
    ])
    func aPatternMatchesWhatRangeOfMatches(pattern: String, text: String) {
        let expected = text.range(of: pattern, options: [.regularExpression, .caseInsensitive]) != nil
        #expect(TextPatterns.matches(pattern, in: text) == expected)
        #expect(TextPatterns.matches(pattern, in: text) == expected, "the second time, compiled")
    }

    @Test func anInvalidPatternIsNotValid() {
        #expect(!TextPatterns.isValid("(a|b"))
        #expect(TextPatterns.expression("(a|b") == nil)
        #expect(TextPatterns.isValid("a|b"))
        #expect(TextPatterns.isValid("a(?=b)"), "valid, outside PlainRegex's subset")
    }

    @Test(arguments: [
        "  spaced  ", "\ttabbed\t", "none", "", "   ", " inner  space ", "\u{00A0}nbsp\u{00A0}", " café ",
        "\u{2003}em\u{2003} ",
        "line\n", " \u{0301}accent ", "\u{3000}ideographic\u{3000}", "→ arrow →", "\u{200B}zero width\u{200B}",
        "\u{202F}narrow\u{205F}", "\u{85}next\u{85}", "\u{180E}mongolian\u{180E}", "\u{FEFF}bom\u{FEFF}",
        "\u{1680}ogham\u{2028}",
    ])
    func trimmingSpacesIsTrimmingWhitespaces(text: String) {
        #expect(text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces))
    }
}

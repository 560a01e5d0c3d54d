import Testing

@testable import EarshotScript

/// Malformed scripts report `path:line:col: error: …`, the source line, a caret and a hint.
@Suite struct ScriptDiagnosticsTests {
    static let header = "title \"T\"\npattern custom p\nvariant before\nscreen S\n  searchField query \"Search\"\n"

    static func diagnostics(_ source: String) -> [ScriptDiagnostic] {
        do {
            _ = try ScenarioParser.parse(source: source, path: "bad.earshot")
            return []
        } catch {
            return error.diagnostics
        }
    }

    @Test func unknownElementSuggestsTheNearestID() throws {
        let found = Self.diagnostics(Self.header + "at 1s focus qurey\n")
        let diagnostic = try #require(found.first)
        #expect(found.count == 1)
        #expect(
            diagnostic.description == """
                bad.earshot:6:13: error: unknown element 'qurey'
                at 1s focus qurey
                            ^~~~~
                hint: did you mean 'query'?
                """)
    }

    @Test(arguments: [
        ("at 1s anounce \"x\"", "bad.earshot:6:7: error: unknown action 'anounce'", "did you mean 'announce'?"),
        ("anounce \"x\"", "bad.earshot:6:1: error: unknown keyword 'anounce'", "did you mean 'announce'?"),
        (
            "at 1.2x focus query", "bad.earshot:6:4: error: bad duration '1.2x'",
            "write a number followed by ms, s or m, e.g. 150ms, 1.2s, 2m"
        ),
        (
            "announce \"never closed", "bad.earshot:6:10: error: unterminated string",
            "close the string with \" on the same line"
        ),
        (
            "at 1s focus query\n  activate", "bad.earshot:7:3: error: unexpected indentation",
            "'focus' does not open a block"
        ),
        (
            "  button b \"B\"\n      button c \"C\"", "bad.earshot:7:7: error: unexpected indentation",
            "'button' does not open a block"
        ),
        (
            "screen T\n    button x \"X\"\n  button y \"Y\"",
            "bad.earshot:8:3: error: indentation does not match any outer block",
            "indent this line by 4 spaces like the lines above it"
        ),
        (
            "at 2s focus query\nat 1s focus query",
            "bad.earshot:7:4: error: time goes backwards: 1.000s is before 2.000s",
            "timed lines run in order; the previous line is at 2.000s"
        ),
        (
            "on type in query:\n  focus query", "bad.earshot:7:3: error: expected an app action, found 'focus'",
            "user actions and timed lines go at the top level, not inside a block"
        ),
        (
            "on type in query:", "bad.earshot:6:17: error: expected an indented block after 'on type'",
            "end the line with ':' and indent the lines that belong to it"
        ),
        (
            "check \"c\":\n  no announcments while typing",
            "bad.earshot:7:6: error: expected what to count, found 'announcments'",
            "did you mean 'announcement'?"
        ),
        ("at 1s announce \"{value qury}\"", "bad.earshot:6:17: error: unknown element 'qury'", "did you mean 'query'?"),
        (
            "check \"c\":\n  text visible matching \"(80\"", "bad.earshot:7:25: error: invalid regular expression",
            "escape special characters with a backslash, e.g. \\. or \\$"
        ),
    ])
    func malformedLineReportsItsPosition(_ body: String, _ first: String, _ hint: String?) throws {
        let found = Self.diagnostics(Self.header + body + "\n")
        let diagnostic = try #require(found.first)
        #expect(diagnostic.description.split(separator: "\n").first.map(String.init) == first)
        #expect(diagnostic.hint == hint)
    }

    @Test func duplicateIDPointsAtTheSecondDeclaration() throws {
        let diagnostic = try #require(Self.diagnostics(Self.header + "  button query \"Go\"\n").first)
        #expect(diagnostic.location.line == 6 && diagnostic.location.column == 10)
        #expect(diagnostic.message == "duplicate element id 'query'")
        #expect(diagnostic.caretLine == "         ^~~~~")
        #expect(diagnostic.hint == "'query' is already declared on line 5 of this screen")
    }

    @Test func wrongVariantListsTheChoices() throws {
        let found = Self.diagnostics("title \"T\"\npattern custom p\nvariant fixed\nscreen S\n  button a \"A\"\n")
        #expect(
            found.first?.description == """
                bad.earshot:3:9: error: unknown variant 'fixed'
                variant fixed
                        ^~~~~
                hint: write one of: before, after
                """)
    }

    @Test func missingHeaderFieldsAreEachReported() {
        // A scenario testing a rule names no pattern and no variant; a card's script names both.
        let found = Self.diagnostics("screen S\n  button a \"A\"\n")
        #expect(found.map(\.message) == ["missing header field 'title'"])
        let half = Self.diagnostics("variant after\nscreen S\n  button a \"A\"\n")
        #expect(half.map(\.message) == ["missing header field 'title'", "missing header field 'pattern'"])
        #expect(found.allSatisfy { $0.location.line == 1 && $0.location.column == 1 })
    }

    @Test func independentMistakesAreAllCollectedInSourceOrder() {
        let found = Self.diagnostics(Self.header + "at 1s focus cart\nat 2s swipe sideways\nwait forever\n")
        #expect(found.map(\.location.line) == [6, 7, 8])
        #expect(
            found.map(\.message) == [
                "unknown element 'cart'", "unknown swipe direction 'sideways'", "bad duration 'forever'",
            ])
        #expect(ScriptDiagnostics(found).description.hasSuffix("3 errors generated."))
    }

    @Test func tabIndentationIsRejectedAtTheTab() throws {
        let diagnostic = try #require(Self.diagnostics(Self.header + "\tbutton b \"B\"\n").first)
        #expect(diagnostic.location.line == 6 && diagnostic.location.column == 1)
        #expect(diagnostic.message == "tab in indentation")
    }

    @Test func byteOrderMarkAndCRLFDoNotShiftColumns() throws {
        let source = "\u{FEFF}" + Self.header.replacingOccurrences(of: "\n", with: "\r\n") + "at 1s focus qurey\r\n"
        let diagnostic = try #require(Self.diagnostics(source).first)
        #expect(diagnostic.location == SourceLocation(path: "bad.earshot", line: 6, column: 13))
        #expect(diagnostic.sourceLine == "at 1s focus qurey")
    }

    @Test func caretUnderlinesTheWholeToken() {
        let diagnostic = ScriptDiagnostic(
            location: SourceLocation(path: "p", line: 1, column: 3), length: 4,
            message: "m", sourceLine: "\tx word")
        #expect(diagnostic.caretLine == "\t ^~~~")
    }
}

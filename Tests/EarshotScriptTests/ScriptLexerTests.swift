import Testing

@testable import EarshotScript

/// The lexer: lines split at every kind of line break, and tokens placed in characters whether a line is ASCII
/// (lexed on its bytes) or not (lexed on its characters).
@Suite struct ScriptLexerTests {
    @Test(arguments: [
        ("a\r\nb\rc\n\nd\r", ["a", "b", "c", "", "d", ""]),
        ("", [""]),
        ("\r\n", ["", ""]),
        ("\n\r", ["", "", ""]),
        ("one", ["one"]),
        ("é\r\n👩‍👧\n", ["é", "👩‍👧", ""]),
    ])
    func linesSplitAtNewlinesCarriageReturnsAndBoth(text: String, lines: [String]) {
        #expect(ScriptLexer.lines(of: text) == lines)
    }

    private func tokens(_ line: String) -> [ScriptToken] {
        var lexer = ScriptLexer(path: "test.earshot")
        return lexer.lex(line).first?.tokens ?? []
    }

    @Test func anASCIILineIsPlacedByCharacter() {
        let tokens = tokens(#"at 10s announce "say \"hi\" \\ now" key=x # note"#)
        #expect(tokens.map(\.kind) == [.word, .word, .word, .string, .word, .equals, .word])
        #expect(tokens.map(\.text) == ["at", "10s", "announce", #"say "hi" \ now"#, "key", "=", "x"])
        #expect(tokens.map(\.column) == [1, 4, 8, 17, 37, 40, 41])
        #expect(tokens.map(\.length) == [2, 3, 8, 19, 3, 1, 1])
    }

    @Test func aLineWithOtherCharactersIsPlacedByCharacterToo() {
        // "é" as e and a combining accent, a family emoji of five scalars: one character each.
        let tokens = tokens("at 10s announce \"e\u{301} \\\"👩‍👩‍👧\\\" \\\\ é\" kéy=x # note")
        #expect(tokens.map(\.kind) == [.word, .word, .word, .string, .word, .equals, .word])
        #expect(tokens.map(\.text) == ["at", "10s", "announce", "e\u{301} \"👩‍👩‍👧\" \\ é", "kéy", "=", "x"])
        #expect(tokens.map(\.column) == [1, 4, 8, 17, 32, 35, 36])
        #expect(tokens.map(\.length) == [2, 3, 8, 14, 3, 1, 1])
    }

    @Test func aBlockOpenerKeepsItsColonsColumnInCharacters() throws {
        var lexer = ScriptLexer(path: "test.earshot")
        let ascii = try #require(lexer.lex("screen Shop:").first)
        #expect(ascii.opensBlock && ascii.colonColumn == 12)
        let other = try #require(lexer.lex("screen Café:").first)
        #expect(other.opensBlock && other.colonColumn == 12)
    }
}

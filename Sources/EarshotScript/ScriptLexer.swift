/// A token of one script line.
struct ScriptToken: Hashable, Sendable {
    /// What kind of token it is.
    enum Kind: Hashable, Sendable {
        /// A bare word: keywords, ids, numbers, durations (`150ms`, `+1.2s`).
        case word
        /// A double-quoted string, with `\"` and `\\` unescaped (other backslashes kept, so regexes work).
        case string
        /// A `:` ending a block opener or separating a data table's key element from its entries.
        case colon
        /// The `=` between a data key and its value.
        case equals
    }

    var kind: Kind
    /// The word, the string's content, or the punctuation.
    var text: String
    /// 1-based column of the token's first character.
    var column: Int
    /// Characters the token spans in the source, quotes included.
    var length: Int
}

/// One non-blank, non-comment line of a script with the lines indented under it.
struct ScriptLine: Sendable {
    /// 1-based line number.
    var number: Int
    /// Leading spaces.
    var indent: Int
    /// The tokens, comments removed; a trailing `:` is removed and recorded in `opensBlock`.
    var tokens: [ScriptToken]
    /// True when the line ended with `:`.
    var opensBlock: Bool
    /// Column of the trailing `:`, when there is one.
    var colonColumn: Int
    /// The raw source line.
    var text: String
    /// The lines indented under this one.
    var children: [ScriptLine] = []
}

/// Splits a script into lines and tokens and builds the indentation tree.
///
/// Accepts a UTF-8 byte order mark and CRLF line endings; rejects tabs in indentation (a tab has no
/// agreed width, so the block structure would be ambiguous).
struct ScriptLexer {
    let path: String
    private(set) var diagnostics: [ScriptDiagnostic] = []
    /// Every raw line, index 0 = line 1, for diagnostics.
    private(set) var rawLines: [String] = []
    /// True when blocks nest deeper than the limit: the tree is cut there, so the parser stops after lexing.
    private(set) var nestsTooDeep = false

    init(path: String) { self.path = path }

    /// Lexes the source and returns the top-level lines with their children.
    mutating func lex(_ source: String) -> [ScriptLine] {
        var text = source
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        // "\r\n" is one Character in Swift, so split on it explicitly.
        rawLines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
            .map(String.init)
        var flat: [ScriptLine] = []
        for (index, raw) in rawLines.enumerated() {
            if let line = lexLine(raw, number: index + 1) { flat.append(line) }
        }
        var position = 0
        return buildBlocks(flat, position: &position, parentIndent: -1, depth: 0)
    }

    private mutating func lexLine(_ raw: String, number: Int) -> ScriptLine? {
        let chars = Array(raw)
        var index = 0
        while index < chars.count, chars[index] == " " || chars[index] == "\t" {
            if chars[index] == "\t" {
                report(
                    line: number, column: index + 1, length: 1, "tab in indentation",
                    hint: "indent with spaces only")
                return nil
            }
            index += 1
        }
        let indent = index
        var tokens: [ScriptToken] = []
        while index < chars.count {
            let char = chars[index]
            if char == " " || char == "\t" {
                index += 1
            } else if char == "#" {
                break
            } else if char == "\"" {
                let start = index
                var content = ""
                index += 1
                var closed = false
                while index < chars.count {
                    let c = chars[index]
                    if c == "\\", index + 1 < chars.count, chars[index + 1] == "\"" || chars[index + 1] == "\\" {
                        content.append(chars[index + 1])
                        index += 2
                    } else if c == "\"" {
                        closed = true
                        index += 1
                        break
                    } else {
                        content.append(c)
                        index += 1
                    }
                }
                if !closed {
                    report(
                        line: number, column: start + 1, length: chars.count - start, "unterminated string",
                        hint: "close the string with \" on the same line")
                    return nil
                }
                if content.count > ScenarioLimits.longestString {
                    report(
                        line: number, column: start + 1, length: 1,
                        "a string of \(content.count.formatted) characters is longer than the "
                            + "\(ScenarioLimits.longestString.formatted)-character limit",
                        hint:
                            "split the text; a string holds at most \(ScenarioLimits.longestString.formatted) characters"
                    )
                    return nil
                }
                tokens.append(ScriptToken(kind: .string, text: content, column: start + 1, length: index - start))
            } else if char == ":" || char == "=" {
                tokens.append(
                    ScriptToken(
                        kind: char == ":" ? .colon : .equals, text: String(char),
                        column: index + 1, length: 1))
                index += 1
            } else {
                let start = index
                while index < chars.count, !" \t\"#:=".contains(chars[index]) { index += 1 }
                tokens.append(
                    ScriptToken(
                        kind: .word, text: String(chars[start..<index]), column: start + 1,
                        length: index - start))
            }
        }
        if tokens.isEmpty { return nil }
        var opensBlock = false
        var colonColumn = 0
        if let last = tokens.last, last.kind == .colon {
            opensBlock = true
            colonColumn = last.column
            tokens.removeLast()
        }
        return ScriptLine(
            number: number, indent: indent, tokens: tokens, opensBlock: opensBlock,
            colonColumn: colonColumn, text: raw)
    }

    /// Groups lines by indentation: each line owns the following lines indented deeper than it.
    ///
    /// Recursion is one level per block, so blocks nested deeper than `ScenarioLimits.deepestNesting` are
    /// reported and skipped without descending into them.
    private mutating func buildBlocks(_ lines: [ScriptLine], position: inout Int, parentIndent: Int, depth: Int)
        -> [ScriptLine]
    {
        if depth > ScenarioLimits.deepestNesting, position < lines.count, lines[position].indent > parentIndent {
            let line = lines[position]
            report(
                line: line.number, column: line.indent + 1, length: 1,
                "blocks nested more than \(ScenarioLimits.deepestNesting) levels deep",
                hint: "a script nests at most \(ScenarioLimits.deepestNesting) blocks")
            while position < lines.count, lines[position].indent > parentIndent { position += 1 }
            nestsTooDeep = true
            return []
        }
        var result: [ScriptLine] = []
        var blockIndent: Int? = parentIndent < 0 ? 0 : nil
        while position < lines.count {
            var line = lines[position]
            if line.indent <= parentIndent { break }
            if let expected = blockIndent, line.indent != expected {
                if line.indent > expected {
                    report(
                        line: line.number, column: line.indent + 1, length: 1, "unexpected indentation",
                        hint: "only a line ending in ':' (or a screen) opens an indented block")
                } else {
                    report(
                        line: line.number, column: line.indent + 1, length: 1,
                        "indentation does not match any outer block",
                        hint: "indent this line by \(expected) spaces like the lines above it")
                }
                position += 1
                // Skip this line's own children too.
                _ = buildBlocks(lines, position: &position, parentIndent: line.indent, depth: depth + 1)
                continue
            }
            blockIndent = line.indent
            position += 1
            line.children = buildBlocks(lines, position: &position, parentIndent: line.indent, depth: depth + 1)
            result.append(line)
        }
        return result
    }

    private mutating func report(line: Int, column: Int, length: Int, _ message: String, hint: String?) {
        let source = line - 1 < rawLines.count ? rawLines[line - 1] : ""
        diagnostics.append(
            ScriptDiagnostic(
                location: SourceLocation(path: path, line: line, column: column),
                length: length, message: message, hint: hint, sourceLine: source))
    }
}

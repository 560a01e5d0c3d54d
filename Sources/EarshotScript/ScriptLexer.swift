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
        rawLines = Self.lines(of: text)
        var flat: [ScriptLine] = []
        for (index, raw) in rawLines.enumerated() {
            if let line = lexLine(raw, number: index + 1) { flat.append(line) }
        }
        var position = 0
        return buildBlocks(flat, position: &position, parentIndent: -1, depth: 0)
    }

    /// The lines of `text`, split at "\n", "\r\n" and "\r" (line breaks always end a character, so splitting the
    /// bytes gives the lines splitting the characters would, without comparing characters).
    static func lines(of text: String) -> [String] {
        var lines: [String] = []
        var utf8 = Array(text.utf8)
        utf8.append(UInt8(ascii: "\n"))  // the last line, even when empty
        var start = 0
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                lines.append(String(decoding: utf8[start..<index], as: UTF8.self))
                if byte == UInt8(ascii: "\r"), index + 1 < utf8.count - 1, utf8[index + 1] == UInt8(ascii: "\n") {
                    index += 1
                }
                start = index + 1
            }
            index += 1
        }
        return lines
    }

    private mutating func lexLine(_ raw: String, number: Int) -> ScriptLine? {
        // Columns count characters. A line of ASCII (nearly every line) is lexed on its bytes, where a byte is a
        // character; any other line on its characters, each compared by its ASCII byte (0 for any other).
        let utf8 = Array(raw.utf8)
        let isASCII = utf8.allSatisfy { $0 < 0x80 }
        let chars: [Character] = isASCII ? [] : Array(raw)
        let bytes: [UInt8] = isASCII ? utf8 : chars.map { $0.asciiValue ?? 0 }
        func text(_ range: Range<Int>) -> String {
            isASCII ? String(decoding: utf8[range], as: UTF8.self) : String(chars[range])
        }
        let count = bytes.count
        var index = 0
        while index < count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
            if bytes[index] == UInt8(ascii: "\t") {
                report(
                    line: number, column: index + 1, length: 1, "tab in indentation",
                    hint: "indent with spaces only")
                return nil
            }
            index += 1
        }
        let indent = index
        var tokens: [ScriptToken] = []
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                index += 1
            } else if byte == UInt8(ascii: "#") {
                break
            } else if byte == UInt8(ascii: "\"") {
                let start = index
                var content = ""
                index += 1
                var run = index
                var closed = false
                while index < count {
                    let c = bytes[index]
                    if c == UInt8(ascii: "\\"), index + 1 < count,
                        bytes[index + 1] == UInt8(ascii: "\"") || bytes[index + 1] == UInt8(ascii: "\\")
                    {
                        // The escaped character starts the next run.
                        content += text(run..<index)
                        run = index + 1
                        index += 2
                    } else if c == UInt8(ascii: "\"") {
                        content += text(run..<index)
                        closed = true
                        index += 1
                        break
                    } else {
                        index += 1
                    }
                }
                if !closed {
                    report(
                        line: number, column: start + 1, length: count - start, "unterminated string",
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
            } else if byte == UInt8(ascii: ":") || byte == UInt8(ascii: "=") {
                let isColon = byte == UInt8(ascii: ":")
                tokens.append(
                    ScriptToken(
                        kind: isColon ? .colon : .equals, text: isColon ? ":" : "=", column: index + 1, length: 1))
                index += 1
            } else {
                let start = index
                while index < count, !Self.endsWord(bytes[index]) { index += 1 }
                tokens.append(
                    ScriptToken(kind: .word, text: text(start..<index), column: start + 1, length: index - start))
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

    /// True for the bytes that end a word: space, tab, `"`, `#`, `:` and `=`.
    private static func endsWord(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\""), UInt8(ascii: "#"), UInt8(ascii: ":"),
            UInt8(ascii: "="):
            return true
        default: return false
        }
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

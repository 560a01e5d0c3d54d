import EarshotCore

/// A parse error inside one line, turned into a `ScriptDiagnostic` by the parser.
struct ParseFailure: Error {
    var line: Int
    var column: Int
    var length: Int
    var message: String
    var hint: String?
}

/// Reads the tokens of one line left to right, with typed errors that point at the offending token.
struct TokenCursor {
    let line: ScriptLine
    private(set) var index = 0

    init(_ line: ScriptLine, skipping count: Int = 0) {
        self.line = line
        self.index = count
    }

    var isAtEnd: Bool { index >= line.tokens.count }
    var current: ScriptToken? { index < line.tokens.count ? line.tokens[index] : nil }

    /// The word `offset` tokens ahead, if that token is a word.
    func peekWord(_ offset: Int = 0) -> String? {
        let position = index + offset
        guard position < line.tokens.count, line.tokens[position].kind == .word else { return nil }
        return line.tokens[position].text
    }

    /// True when the next token is a string.
    var atString: Bool { current?.kind == .string }

    @discardableResult
    mutating func advance() -> ScriptToken? {
        guard let token = current else { return nil }
        index += 1
        return token
    }

    /// Consumes the word if it is next.
    mutating func accept(_ word: String) -> Bool {
        guard peekWord() == word else { return false }
        index += 1
        return true
    }

    /// Consumes the words if they all come next, in order.
    mutating func accept(_ words: [String]) -> Bool {
        for (offset, word) in words.enumerated() where peekWord(offset) != word { return false }
        index += words.count
        return true
    }

    /// A failure at a token, or just past the end of the line when `token` is nil.
    func failure(at token: ScriptToken?, _ message: String, hint: String? = nil) -> ParseFailure {
        if let token {
            return ParseFailure(
                line: line.number, column: token.column, length: token.length, message: message,
                hint: hint)
        }
        let end = line.tokens.last.map { $0.column + $0.length } ?? line.indent + 1
        let column = line.opensBlock ? line.colonColumn : end
        return ParseFailure(line: line.number, column: column, length: 1, message: message, hint: hint)
    }

    /// Describes the next token for "expected …, found …" messages.
    var foundDescription: String {
        guard let token = current else { return "end of line" }
        switch token.kind {
        case .word: return "'\(token.text)'"
        case .string: return "a string"
        case .colon: return "':'"
        case .equals: return "'='"
        }
    }

    /// The next token, which must be a word.
    mutating func word(_ what: String) throws(ParseFailure) -> ScriptToken {
        guard let token = current, token.kind == .word else {
            throw failure(at: current, "expected \(what), found \(foundDescription)")
        }
        index += 1
        return token
    }

    /// The next token, which must be a string.
    mutating func string(_ what: String) throws(ParseFailure) -> ScriptToken {
        guard let token = current, token.kind == .string else {
            throw failure(at: current, "expected \(what) in double quotes, found \(foundDescription)")
        }
        index += 1
        return token
    }

    /// The next word, which must be one of `options`; a near miss suggests the closest.
    mutating func keyword(_ options: [String], what: String) throws(ParseFailure) -> ScriptToken {
        guard let token = current, token.kind == .word else {
            throw failure(
                at: current, "expected \(what), found \(foundDescription)",
                hint: "write one of: \(options.joined(separator: ", "))")
        }
        guard options.contains(token.text) else {
            throw failure(
                at: token, "unknown \(what) '\(token.text)'",
                hint: Suggestion.hint(
                    for: token.text,
                    among: options, listing: true))
        }
        index += 1
        return token
    }

    /// The next word as a span (`150ms`, `1.2s`, `2m`), at most 24 hours.
    mutating func span(_ what: String) throws(ParseFailure) -> TimeSpan {
        let token = try word(what)
        guard let span = DurationLiteral.span(token.text) else {
            throw failure(at: token, "bad duration '\(token.text)'", hint: DurationLiteral.hint)
        }
        try checkLimit(span, at: token)
        return span
    }

    /// The next word as a whole number ≥ `minimum`.
    mutating func integer(_ what: String, minimum: Int = 0) throws(ParseFailure) -> Int {
        let token = try word(what)
        guard let value = Int(token.text), value >= minimum else {
            throw failure(at: token, "expected \(what) (a whole number ≥ \(minimum)), found '\(token.text)'")
        }
        return value
    }

    /// `on`/`off`/`true`/`false` as a Bool.
    mutating func flag(_ what: String) throws(ParseFailure) -> Bool {
        let token = try keyword(["on", "off", "true", "false"], what: what)
        return token.text == "on" || token.text == "true"
    }

    /// Fails if any token is left.
    func finish() throws(ParseFailure) {
        if let token = current {
            throw failure(at: token, "unexpected \(foundDescription) at the end of the line")
        }
    }
}

/// Duration literals: a decimal number and a unit, converted exactly (no floating point).
enum DurationLiteral {
    static let hint = "write a number followed by ms, s or m, e.g. 150ms, 1.2s, 2m"

    /// `150ms`, `1.2s`, `2m`, `0.5h`: nil when malformed; a value too large for the clock is `Int64.max`
    /// nanoseconds, which every limit rejects.
    static func span(_ text: String) -> TimeSpan? {
        let units: [(String, Int64)] = [
            ("ms", 1_000_000), ("s", 1_000_000_000), ("m", 60_000_000_000),
            ("h", 3_600_000_000_000),
        ]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            let number = text.dropLast(suffix.count)
            guard let nanoseconds = scaled(String(number), by: scale) else { return nil }
            return TimeSpan(nanoseconds: nanoseconds)
        }
        return nil
    }

    private static func scaled(_ number: String, by scale: Int64) -> Int64? {
        let pieces = number.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(pieces.count), let wholeText = pieces.first, !wholeText.isEmpty,
            wholeText.allSatisfy(\.isASCII), let whole = Int64(wholeText), whole >= 0
        else { return nil }
        var result = Saturating.multiply(whole, scale)
        if pieces.count == 2 {
            let fraction = pieces[1]
            guard !fraction.isEmpty, fraction.count <= 9, fraction.allSatisfy({ $0.isASCII && $0.isNumber }),
                let digits = Int64(fraction)
            else { return nil }
            var divisor: Int64 = 1
            for _ in 0..<fraction.count { divisor *= 10 }
            // digits < 10⁹ and scale ≤ 3.6·10¹², so digits · scale fits comfortably in 128 bits.
            let product = digits.multipliedFullWidth(by: scale)
            let (quotient, remainder) = divisor.dividingFullWidth(product)
            guard remainder == 0 else { return nil }
            result = Saturating.add(result, quotient)
        }
        return result
    }
}

/// "Did you mean …?" by edit distance.
enum Suggestion {
    /// The closest candidate within a distance proportional to the word's length, if any.
    static func nearest(to word: String, among candidates: [String]) -> String? {
        Spelling.nearest(to: word, among: candidates, limit: max(2, word.count / 3))
    }

    /// `did you mean 'x'?`, or the list of options when `listing` and nothing is close.
    static func hint(for word: String, among candidates: [String], listing: Bool = false) -> String? {
        if let nearest = nearest(to: word, among: candidates) { return "did you mean '\(nearest)'?" }
        return listing ? "write one of: \(candidates.joined(separator: ", "))" : nil
    }
}

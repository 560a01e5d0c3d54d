import Foundation
import Testing

/// The TextMate grammar in editors/ against every shipped script, through a small matcher that follows
/// TextMate's rules for one line: at each position the pattern matching earliest wins (the first listed on a
/// tie); a begin/end pattern scans its own patterns until its end matches.
@Suite struct TextMateGrammarTests {
    static let grammarPath = packageRoot + "/editors/earshot.tmLanguage.json"

    /// The scope identifiers get: a line whose first word has only this scope was not recognised.
    static let genericScope = "variable.other.earshot"

    @Test func everyLineOfEveryShippedScriptIsRecognised() throws {
        let grammar = try Grammar(path: Self.grammarPath)
        let scripts = (FileManager.default.enumerator(atPath: packageRoot + "/Scripts")?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".earshot") }.sorted()
        #expect(scripts.count >= 20)
        var problems: [String] = []
        for script in scripts {
            let text = try String(contentsOfFile: packageRoot + "/Scripts/" + script, encoding: .utf8)
            for (index, line) in text.components(separatedBy: "\n").enumerated() {
                if let problem = grammar.problem(in: line) { problems.append("\(script):\(index + 1): \(problem)") }
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test(arguments: [
        ("frobnicate query \"x\"", "starts with an unknown word"),
        ("  button cart \"Cart\" ~~~", "has characters no rule matches"),
    ])
    func aLineTheGrammarDoesNotKnowIsReported(line: String, why: String) throws {
        let grammar = try Grammar(path: Self.grammarPath)
        #expect(grammar.problem(in: line) != nil, "a line that \(why) must be reported")
    }

    @Test func aHashInsideAStringIsNotAComment() throws {
        let grammar = try Grammar(path: Self.grammarPath)
        let tokens = grammar.tokenize("  announce \"Order #1042 ready\"  # a comment")
        let hashes = tokens.filter { $0.text.contains("#") }
        #expect(hashes.map(\.scope) == ["string.quoted.double.earshot", "comment.line.number-sign.earshot"])
        #expect(tokens.contains { $0.text == "announce" && $0.scope == "keyword.other.action.earshot" })
    }

    @Test func templatesAndEscapesInStringsHaveTheirOwnScopes() throws {
        let grammar = try Grammar(path: Self.grammarPath)
        let tokens = grammar.tokenize("  set results label \"{results-for query} \\\"results\\\"\"")
        #expect(
            tokens.contains { $0.text == "{results-for query}" && $0.scope == "variable.parameter.template.earshot" })
        #expect(tokens.contains { $0.text == "\\\"" && $0.scope == "constant.character.escape.earshot" })
    }
}

/// The subset of a TextMate grammar the Earshot grammar uses: `match` with `name` or `captures`, `begin`/`end`
/// with nested `patterns`, and `include` of repository rules.
struct Grammar {
    indirect enum Rule {
        case match(NSRegularExpression, name: String?, captures: [Int: String])
        case span(begin: NSRegularExpression, end: NSRegularExpression, name: String?, patterns: [Rule])
    }

    struct Token {
        var range: NSRange
        var scope: String
        var text: String
    }

    let patterns: [Rule]

    init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        let repository = json["repository"] as? [String: [String: Any]] ?? [:]
        func rules(_ list: [[String: Any]]) throws -> [Rule] {
            try list.map { entry in
                if let include = entry["include"] as? String {
                    guard include.hasPrefix("#"), let target = repository[String(include.dropFirst())] else {
                        throw CocoaError(.fileReadCorruptFile, userInfo: [NSDebugDescriptionErrorKey: include])
                    }
                    return try rules([target])[0]
                }
                let name = entry["name"] as? String
                if let match = entry["match"] as? String {
                    let captures = (entry["captures"] as? [String: [String: String]] ?? [:])
                        .reduce(into: [Int: String]()) { result, item in
                            if let index = Int(item.key), let scope = item.value["name"] { result[index] = scope }
                        }
                    return .match(try NSRegularExpression(pattern: match), name: name, captures: captures)
                }
                guard let begin = entry["begin"] as? String, let end = entry["end"] as? String else {
                    throw CocoaError(.fileReadCorruptFile)
                }
                return .span(
                    begin: try NSRegularExpression(pattern: begin), end: try NSRegularExpression(pattern: end),
                    name: name, patterns: try rules(entry["patterns"] as? [[String: Any]] ?? []))
            }
        }
        patterns = try rules(json["patterns"] as? [[String: Any]] ?? [])
    }

    /// Every scoped piece of a line, outermost first where they nest.
    func tokenize(_ line: String) -> [Token] {
        let text = line as NSString
        var tokens: [Token] = []
        _ = scan(text, from: 0, patterns: patterns, end: nil, into: &tokens)
        return tokens.map { Token(range: $0.range, scope: $0.scope, text: text.substring(with: $0.range)) }
    }

    /// Why a line is not recognised: a non-space character no rule scopes, or a first word with only the
    /// generic identifier scope. Nil when the line is fine (blank lines are).
    func problem(in line: String) -> String? {
        let tokens = tokenize(line)
        let text = line as NSString
        for index in 0..<text.length {
            guard let scalar = UnicodeScalar(text.character(at: index)), !CharacterSet.whitespaces.contains(scalar)
            else { continue }
            if !tokens.contains(where: { NSLocationInRange(index, $0.range) }) {
                return "no rule matches '\(text.substring(from: index))'"
            }
        }
        let first = (line as NSString).rangeOfCharacter(from: CharacterSet.whitespaces.inverted)
        guard first.location != NSNotFound else { return nil }
        let scopes = tokens.filter { NSLocationInRange(first.location, $0.range) }.map(\.scope)
        if scopes.allSatisfy({ $0 == TextMateGrammarTests.genericScope }) {
            return "the first word has only the generic scope: \(line)"
        }
        return nil
    }

    /// Scans from `position` until `end` matches (or the line ends); returns where scanning stopped.
    private func scan(
        _ text: NSString, from start: Int, patterns: [Rule], end: NSRegularExpression?, into tokens: inout [Token]
    ) -> Int {
        var position = start
        while position <= text.length {
            let rest = NSRange(location: position, length: text.length - position)
            let endMatch = end?.firstMatch(in: text as String, options: .withoutAnchoringBounds, range: rest)
            var best: (rule: Rule, match: NSTextCheckingResult)?
            for rule in patterns {
                let regex: NSRegularExpression
                switch rule {
                case .match(let expression, _, _): regex = expression
                case .span(let begin, _, _, _): regex = begin
                }
                guard let match = regex.firstMatch(in: text as String, options: .withoutAnchoringBounds, range: rest),
                    match.range.length > 0 || match.range.location < text.length
                else { continue }
                if best.map({ match.range.location < $0.match.range.location }) ?? true { best = (rule, match) }
            }
            if let endMatch, endMatch.range.location <= (best?.match.range.location ?? Int.max) {
                return endMatch.range.location + endMatch.range.length
            }
            guard let best else { return text.length }
            switch best.rule {
            case .match(_, let name, let captures):
                if let name { tokens.append(Token(range: best.match.range, scope: name, text: "")) }
                for (index, scope) in captures.sorted(by: { $0.key < $1.key })
                where index < best.match.numberOfRanges && best.match.range(at: index).location != NSNotFound {
                    tokens.append(Token(range: best.match.range(at: index), scope: scope, text: ""))
                }
                position = best.match.range.location + max(1, best.match.range.length)
            case .span(_, let endExpression, let name, let inner):
                let begin = best.match.range
                var innerTokens: [Token] = []
                let stop = scan(
                    text, from: begin.location + begin.length, patterns: inner, end: endExpression, into: &innerTokens)
                if let name {
                    tokens.append(
                        Token(
                            range: NSRange(location: begin.location, length: stop - begin.location), scope: name,
                            text: ""))
                }
                tokens += innerTokens
                position = max(stop, begin.location + 1)
            }
            if position >= text.length && end == nil { return position }
        }
        return position
    }
}

import EarshotCore
import Foundation

/// `check "…":` blocks and their assertion lines.
extension ParserState {
    static let assertionStarts = [
        "no", "exactly", "at", "silent", "captions", "scan", "swipe", "element", "heard", "focus", "text", "screens",
        "announcement", "speech", "hint", "poll", "stale", "echo",
    ]

    mutating func parseCheck(_ line: ScriptLine) throws(ParseFailure) {
        var cursor = TokenCursor(line, skipping: 1)
        let name = try cursor.string("the check's name (the card's Expected wording)")
        let readers = try parseCheckReaders(&cursor)
        try cursor.finish()
        try requireBlock(line, keyword: "check")
        var assertions: [ScenarioAssertion] = []
        for child in line.children {
            do throws(ParseFailure) {
                var childCursor = TokenCursor(child)
                let kind = try assertion(&childCursor, line: child)
                try childCursor.finish()
                rejectBlock(child, keyword: child.tokens.first?.text ?? "")
                let text = child.text.trimmingSpaces()
                assertions.append(
                    ScenarioAssertion(
                        kind: kind, text: Self.stripComment(text),
                        location: location(child, child.tokens.first)))
            } catch {
                report(error)
            }
        }
        checks.append(
            ScenarioCheck(
                name: name.text, assertions: assertions, location: location(line, line.tokens.first), readers: readers))
    }

    private static func stripComment(_ text: String) -> String {
        var inString = false
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII (nearly every line): bytes are characters.
            var end = text.utf8.endIndex
            for index in text.utf8.indices {
                let byte = text.utf8[index]
                if byte == UInt8(ascii: "\"") { inString.toggle() }
                if byte == UInt8(ascii: "#"), !inString {
                    end = index
                    break
                }
            }
            return String(text[..<end]).trimmingSpaces()
        }
        var result = ""
        for char in text {
            if char == "\"" { inString.toggle() }
            if char == "#", !inString { break }
            result.append(char)
        }
        return result.trimmingSpaces()
    }

    private mutating func assertion(_ cursor: inout TokenCursor, line: ScriptLine) throws(ParseFailure)
        -> ScenarioAssertionKind
    {
        guard let first = cursor.current, first.kind == .word else {
            throw cursor.failure(at: cursor.current, "expected an assertion, found \(cursor.foundDescription)")
        }
        if let quantifier = try quantifier(&cursor) {
            return .count(try countRest(&cursor, line: line, quantifier: quantifier))
        }
        if cursor.accept("silent") {
            return .count(ScenarioCount(quantifier: .none, subject: .speech, window: try window(&cursor, line: line)))
        }
        if cursor.accept(["captions", "appear"]) {
            return .count(
                ScenarioCount(
                    quantifier: .atLeast(1), subject: .caption,
                    window: try window(&cursor, line: line)))
        }
        if cursor.accept(["scan", "never", "stops"]) {
            let target = try targetFilter(&cursor, line: line)
            guard target != nil else {
                throw cursor.failure(at: cursor.current, "expected 'on' and what the scan skips")
            }
            return .count(
                ScenarioCount(
                    quantifier: .none, subject: .scanStop, target: target,
                    window: try window(&cursor, line: line)))
        }
        if cursor.peekWord() == "scan" || cursor.peekWord() == "swipe" {
            let mode = ScenarioNavigation(rawValue: cursor.advance()?.text ?? "") ?? .swipe
            guard cursor.accept("reaches") else { throw cursor.failure(at: cursor.current, "expected 'reaches'") }
            let id = try elementID(&cursor, line: line)
            return .reaches(mode, element: id, window: try window(&cursor, line: line))
        }
        if cursor.accept("element") {
            let reference: ScenarioElementReference =
                cursor.accept("after")
                ? .after(try elementID(&cursor, line: line)) : .id(try elementID(&cursor, line: line))
            if cursor.accept(["stays", "visible"]) {
                guard case .id(let id) = reference else {
                    throw cursor.failure(at: first, "'stays visible' needs an element id, not 'after'")
                }
                return .staysVisible(element: id, window: try window(&cursor, line: line))
            }
            guard cursor.accept("reads") else {
                throw cursor.failure(at: cursor.current, "expected 'reads' or 'stays visible'")
            }
            let phrase = try textMatch(&cursor)
            let whenFocused = cursor.accept(["when", "focused"])
            return .reads(reference, phrase, whenFocused: whenFocused)
        }
        if cursor.accept("heard") {
            let phrase = try textMatch(&cursor)
            guard cursor.accept(["at", "least", "every"]) else {
                throw cursor.failure(at: cursor.current, "expected 'at least every' and a span")
            }
            let interval = try cursor.span("the longest allowed gap")
            return .heardEvery(phrase, interval: interval, window: try window(&cursor, line: line))
        }
        if cursor.accept(["focus", "is", "on"]) { return try focusAt(&cursor, line: line) }
        if let (subject, _) = Self.subject(in: cursor), subject.isSpeech, subject != .cut {
            return try selectorAssertion(&cursor, line: line)
        }
        if cursor.accept("focus") {
            var element: String?
            if cursor.accept(["stays", "on"]) {
                element = try elementID(&cursor, line: line)
            } else if !cursor.accept(["does", "not", "jump"]) {
                throw cursor.failure(
                    at: cursor.current, "expected 'stays on ID', 'does not jump' or 'is on ID at TIME'")
            }
            guard cursor.accept("when") else { throw cursor.failure(at: cursor.current, "expected 'when LOAD loads'") }
            let load = try cursor.word("a load's name")
            reference(.load, load, line: line)
            guard cursor.accept("loads") else { throw cursor.failure(at: cursor.current, "expected 'loads'") }
            return .focusStays(element: element, load: load.text)
        }
        if cursor.accept(["text", "visible"]) {
            let phrase = try textMatch(&cursor)
            return .textVisible(phrase, window: try window(&cursor, line: line))
        }
        if cursor.accept("screens") {
            var names: [String] = []
            while let word = cursor.peekWord(), word != "sound" {
                let token = try cursor.word("a screen name")
                reference(.screen, token, line: line)
                names.append(token.text)
            }
            guard names.count >= 2 else { throw cursor.failure(at: cursor.current, "name at least two screens") }
            guard cursor.accept(["sound", "different"]) else {
                throw cursor.failure(at: cursor.current, "expected 'sound different'")
            }
            return .screensSoundDifferent(names)
        }
        throw cursor.failure(
            at: first, "unknown assertion '\(first.text)'",
            hint: Suggestion.hint(for: first.text, among: Self.assertionStarts)
                ?? "start with one of: \(Self.assertionStarts.joined(separator: ", "))")
    }

    private func quantifier(_ cursor: inout TokenCursor) throws(ParseFailure) -> ScenarioQuantifier? {
        if cursor.accept("no") { return ScenarioQuantifier.none }
        if cursor.accept("exactly") { return .exactly(try cursor.integer("a count")) }
        if cursor.accept(["at", "least"]) { return .atLeast(try cursor.integer("a count")) }
        if cursor.accept(["at", "most"]) { return .atMost(try cursor.integer("a count")) }
        return nil
    }

    mutating func targetFilter(_ cursor: inout TokenCursor, line: ScriptLine) throws(ParseFailure)
        -> ScenarioTargetFilter?
    {
        guard cursor.accept("on") else { return nil }
        if cursor.accept("placeholders") { return .placeholders }
        if cursor.accept(["hidden", "elements"]) { return .hiddenElements }
        return .element(try elementID(&cursor, line: line))
    }

    private func textMatch(_ cursor: inout TokenCursor) throws(ParseFailure) -> ScenarioTextMatch {
        if cursor.accept("matching") { return .matching(try regex(&cursor)) }
        return .exactly(try cursor.string("the text (or 'matching' and a regular expression)").text)
    }

    func regex(_ cursor: inout TokenCursor) throws(ParseFailure) -> String {
        let token = try cursor.string("a regular expression")
        guard TextPatterns.isValid(token.text) else {
            throw cursor.failure(
                at: token, "invalid regular expression",
                hint: "escape special characters with a backslash, e.g. \\. or \\$")
        }
        return token.text
    }

    mutating func elementID(_ cursor: inout TokenCursor, line: ScriptLine) throws(ParseFailure) -> String {
        let token = try cursor.word("an element id")
        reference(.element, token, line: line)
        return token.text
    }

    private mutating func time(_ cursor: inout TokenCursor) throws(ParseFailure) -> Instant {
        Instant.zero + (try cursor.span("a time such as 2s"))
    }

    /// An optional window at the end of an assertion.
    mutating func window(_ cursor: inout TokenCursor, line: ScriptLine) throws(ParseFailure) -> ScenarioWindow? {
        guard let word = cursor.peekWord() else { return nil }
        switch word {
        case "while":
            cursor.advance()
            if cursor.accept("typing") { return .whileTyping }
            if cursor.accept(["focused", "on"]) { return .whileFocused(try elementID(&cursor, line: line)) }
            let name = try cursor.word("'typing', 'focused on ID', 'LOAD loads' or 'MEDIA plays'")
            if cursor.accept("loads") {
                reference(.load, name, line: line)
                return .whileLoading(name.text)
            }
            if cursor.accept("plays") {
                reference(.media, name, line: line)
                return .whileMediaPlays(name.text)
            }
            throw cursor.failure(at: cursor.current, "expected 'loads' or 'plays' after '\(name.text)'")
        case "after":
            cursor.advance()
            if cursor.accept(["typing", "stops"]) { return .afterTypingStops }
            if cursor.accept(["focus", "leaves"]) { return .afterFocusLeaves(try elementID(&cursor, line: line)) }
            if cursor.accept(["announcement", "matching"]) { return .afterAnnouncement(matching: try regex(&cursor)) }
            return .after(try time(&cursor))
        case "within":
            cursor.advance()
            let span = try cursor.span("the window's length")
            guard cursor.accept(["after", "typing", "stops"]) else {
                throw cursor.failure(at: cursor.current, "expected 'after typing stops'")
            }
            return .withinAfterTypingStops(span)
        case "between":
            cursor.advance()
            let start = try time(&cursor)
            guard cursor.accept("and") else { throw cursor.failure(at: cursor.current, "expected 'and'") }
            let endToken = cursor.current
            let end = try time(&cursor)
            guard start < end else { throw cursor.failure(at: endToken, "the window ends before it starts") }
            return .between(start, end)
        case "before":
            cursor.advance()
            return .before(try time(&cursor))
        case "until":
            cursor.advance()
            guard cursor.accept(["focused", "on"]) else {
                throw cursor.failure(at: cursor.current, "expected 'focused on ID'")
            }
            return .untilFocused(try elementID(&cursor, line: line))
        default:
            return nil
        }
    }
}

import EarshotCore
import Foundation

/// Count subjects with their fate (`posted announcement`, `announcement heard in full`, `dropped
/// announcement because focus moved`, `cut focus read by announcement matching "…"`), and the assertions
/// that name speech by a selector (`B starts after A ends`, `A waits at most 1s`, `focus is on ID at 2s`).
extension ParserState {
    /// `[FATE] SUBJECT` then the count's clauses in any order: `on …`, `matching`, `unless matching`,
    /// `heard in full` (or another fate after the subject), `by SUBJECT [matching]`, `because REASON`,
    /// `wasSuccessful true|false`, and finally the window.
    mutating func countRest(_ cursor: inout TokenCursor, line: ScriptLine, quantifier: ScenarioQuantifier)
        throws(ParseFailure) -> ScenarioCount
    {
        var fate: ScenarioFate?
        let fateToken = cursor.current
        if let word = cursor.peekWord(), let prefix = ScenarioFate(rawValue: word), prefix != .heardInFull,
            Self.subject(in: cursor, at: 1) != nil
        {
            cursor.advance()
            fate = prefix
        }
        let subject = try subject(&cursor)
        var count = ScenarioCount(quantifier: quantifier, subject: subject)
        if subject == .cut {
            // `no cuts` is `no cut speech`.
            count.subject = .speech
            fate = fate ?? .cut
        }
        while true {
            if cursor.peekWord() == "on" {
                count.target = try targetFilter(&cursor, line: line)
            } else if cursor.accept("matching") {
                count.matching = try regex(&cursor)
            } else if cursor.accept(["unless", "matching"]) {
                count.unlessMatching = try regex(&cursor)
            } else if let suffix = Self.fateSuffix(&cursor) {
                guard fate == nil || fate == suffix else {
                    throw cursor.failure(at: fateToken, "a count takes one fate; this line names two")
                }
                fate = suffix
            } else if cursor.peekWord() == "by" {
                let by = cursor.current
                cursor.advance()
                count.cutBy = try selector(&cursor, line: line, what: "the speech that cut it")
                guard fate == nil || fate == .cut else {
                    throw cursor.failure(at: by, "'by' names what cut speech: use it with 'cut'")
                }
                fate = .cut
            } else if cursor.peekWord() == "because" {
                let because = cursor.current
                cursor.advance()
                count.dropReason = try dropReason(&cursor)
                guard fate == nil || fate == .dropped else {
                    throw cursor.failure(at: because, "'because' gives why speech was dropped: use it with 'dropped'")
                }
                fate = .dropped
            } else if cursor.peekWord() == "wasSuccessful" {
                let flag = cursor.current
                cursor.advance()
                guard subject == .didFinish else {
                    throw cursor.failure(at: flag, "'wasSuccessful' qualifies announcementDidFinish callbacks")
                }
                count.wasSuccessful = try cursor.keyword(["true", "false"], what: "true or false").text == "true"
            } else {
                break
            }
        }
        if let fate {
            guard count.subject.isSpeech else {
                throw cursor.failure(
                    at: fateToken, "'\(fate.rawValue)' qualifies speech, not \(subject.rawValue)s",
                    hint: "count speech with it: announcement, speech, focus read, hint, poll read, echo")
            }
            count.fate = fate
        }
        count.window = try window(&cursor, line: line)
        if count.unlessMatching == nil, cursor.accept(["unless", "matching"]) {
            count.unlessMatching = try regex(&cursor)
        }
        return count
    }

    /// A fate written after the subject: `heard in full`, `heard`, `posted`, `cut`, `dropped`, `lost`.
    private static func fateSuffix(_ cursor: inout TokenCursor) -> ScenarioFate? {
        if cursor.accept(["heard", "in", "full"]) { return .heardInFull }
        for fate in [ScenarioFate.posted, .heard, .cut, .dropped, .lost] where cursor.accept(fate.rawValue) {
            return fate
        }
        return nil
    }

    /// Every subject with its words, longest first (the order the parser tries them in), worked out once.
    private static let subjectsByLength: [(subject: ScenarioSubject, words: [String])] =
        ScenarioSubject.allCases.sorted { $0.rawValue.count > $1.rawValue.count }
        .map { ($0, $0.rawValue.split(separator: " ").map(String.init)) }

    /// The subject whose words start at `offset`, and how many words it takes (singular or plural).
    static func subject(in cursor: TokenCursor, at offset: Int = 0) -> (ScenarioSubject, Int)? {
        for (subject, words) in subjectsByLength {
            let matched = words.enumerated().allSatisfy { index, word in
                guard let found = cursor.peekWord(offset + index) else { return false }
                return found == word || (index == words.count - 1 && (found == word + "s" || found == word + "es"))
            }
            if matched { return (subject, words.count) }
        }
        return nil
    }

    func subject(_ cursor: inout TokenCursor) throws(ParseFailure) -> ScenarioSubject {
        if let (subject, length) = Self.subject(in: cursor) {
            for _ in 0..<length { cursor.advance() }
            return subject
        }
        let names = ScenarioSubject.allCases.map(\.rawValue)
        throw cursor.failure(
            at: cursor.current, "expected what to count, found \(cursor.foundDescription)",
            hint: Suggestion.hint(for: cursor.peekWord() ?? "", among: names)
                ?? "count one of: \(names.joined(separator: ", "))")
    }

    /// `because focus moved`: one of the engine's drop reasons, word for word.
    private func dropReason(_ cursor: inout TokenCursor) throws(ParseFailure) -> DropReason {
        for reason in DropReason.allCases where cursor.accept(reason.rawValue.split(separator: " ").map(String.init)) {
            return reason
        }
        let reasons = DropReason.allCases.map(\.rawValue)
        throw cursor.failure(
            at: cursor.current, "expected why it was dropped, found \(cursor.foundDescription)",
            hint: "one of: \(reasons.joined(separator: ", "))")
    }

    /// `SUBJECT [on ID] [matching "re"]`, a speech subject.
    mutating func selector(_ cursor: inout TokenCursor, line: ScriptLine, what: String) throws(ParseFailure)
        -> ScenarioSpeechSelector
    {
        let start = cursor.current
        let subject = try subject(&cursor)
        guard subject.isSpeech, subject != .cut else {
            throw cursor.failure(
                at: start, "expected \(what): announcement, speech, focus read, hint, poll read or echo")
        }
        var selector = ScenarioSpeechSelector(subject: subject)
        if cursor.accept("on") {
            let token = try cursor.word("an element id")
            reference(.element, token, line: line)
            selector.element = token.text
        }
        if cursor.accept("matching") { selector.matching = try regex(&cursor) }
        return selector
    }

    /// `B starts [within SPAN | at least SPAN] after A ends` or `A waits at most|at least SPAN`.
    mutating func selectorAssertion(_ cursor: inout TokenCursor, line: ScriptLine) throws(ParseFailure)
        -> ScenarioAssertionKind
    {
        let subject = try selector(&cursor, line: line, what: "speech")
        if cursor.accept("waits") {
            return .waits(subject, try bound(&cursor, allowingWithin: false))
        }
        guard cursor.accept("starts") else {
            throw cursor.failure(at: cursor.current, "expected 'starts … after … ends' or 'waits at most SPAN'")
        }
        let gap = cursor.peekWord() == "after" ? nil : try bound(&cursor, allowingWithin: true)
        guard cursor.accept("after") else { throw cursor.failure(at: cursor.current, "expected 'after'") }
        let anchor = try selector(&cursor, line: line, what: "the speech it follows")
        guard cursor.accept("ends") else { throw cursor.failure(at: cursor.current, "expected 'ends'") }
        return .startsAfter(subject, anchor, gap: gap)
    }

    /// `at most 1s`, `at least 300ms`, and with `allowingWithin`, `within 1s`.
    private func bound(_ cursor: inout TokenCursor, allowingWithin: Bool) throws(ParseFailure) -> ScenarioBound {
        if cursor.accept(["at", "most"]) || (allowingWithin && cursor.accept("within")) {
            return .atMost(try cursor.span("a span such as 500ms"))
        }
        if cursor.accept(["at", "least"]) { return .atLeast(try cursor.span("a span such as 500ms")) }
        throw cursor.failure(
            at: cursor.current, "expected \(allowingWithin ? "'within', " : "")'at most' or 'at least' and a span")
    }

    /// `focus is on ID|nothing at 2s` (after `focus is on`).
    mutating func focusAt(_ cursor: inout TokenCursor, line: ScriptLine) throws(ParseFailure) -> ScenarioAssertionKind {
        var element: String?
        if !cursor.accept("nothing") {
            let token = try cursor.word("an element id, or 'nothing'")
            reference(.element, token, line: line)
            element = token.text
        }
        guard cursor.accept("at") else { throw cursor.failure(at: cursor.current, "expected 'at' and a time") }
        return .focusAt(element: element, at: Instant.zero + (try cursor.span("a time such as 2s")))
    }
}

extension ParserState {
    /// `pattern NAME` (a card: a known name, else did-you-mean) or `pattern custom NAME` (the script's own).
    mutating func patternName(_ cursor: inout TokenCursor) throws(ParseFailure) -> String {
        if cursor.accept("custom") { return try cursor.word("the pattern's own name").text }
        let token = try cursor.word("the pattern's name (the card's file name)")
        let known = ScenarioHeader.knownPatterns
        guard known.contains(token.text) else {
            throw cursor.failure(
                at: token, "unknown pattern '\(token.text)'",
                hint: (Suggestion.hint(for: token.text, among: known).map { $0 + " " } ?? "")
                    + "The cards are \(known.joined(separator: ", ")); write 'pattern custom \(token.text)' "
                    + "for a pattern of your own")
        }
        return token.text
    }
}

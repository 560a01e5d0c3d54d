import EarshotCore

/// The documented bounds on what a script may ask for, so that no script makes Earshot run for minutes,
/// take gigabytes or crash (docs/scenario-format.md, "Limits"). Each is a located parse error.
public enum ScenarioLimits {
    /// The longest time a script may name or reach: 24 hours.
    public static let longestTime = TimeSpan(nanoseconds: 24 * 3_600_000_000_000)
    /// The most timed events a script may schedule: every repetition, keystroke and swipe counts one.
    public static let mostEvents = 1_000_000
    /// The deepest indentation nesting (a line inside a block inside a block …).
    public static let deepestNesting = 64
    /// The longest string a script may hold (an announcement, a label, text to type), in characters.
    public static let longestString = 10_000
    /// The most elements (counting the ones inside groups) all screens may declare together.
    public static let mostElements = 10_000

    /// The shortest period of a timer that repeats for the whole scenario (`poll`, `scan-step`), so that
    /// 24 hours of it stay under a million events.
    public static let shortestPeriod = TimeSpan.milliseconds(100)

    /// `24 hours`, for messages.
    static let longestTimeText = "24-hour"
}

extension TokenCursor {
    /// Fails at `token` when `span` is longer than the 24-hour limit.
    func checkLimit(_ span: TimeSpan, at token: ScriptToken?) throws(ParseFailure) {
        guard span > ScenarioLimits.longestTime else { return }
        throw failure(
            at: token, "'\(token?.text ?? "\(span)")' is longer than the \(ScenarioLimits.longestTimeText) limit",
            hint: "a scenario lasts at most 24 hours")
    }
}

extension TokenCursor {
    /// The next word as the period of a timer that repeats all scenario long: 100 ms to 24 hours.
    mutating func period(_ what: String) throws(ParseFailure) -> TimeSpan {
        let token = current
        let span = try span(what)
        guard span >= ScenarioLimits.shortestPeriod else {
            throw failure(
                at: token, "\(what) must be at least \(ScenarioLimits.shortestPeriod)",
                hint: "a timer that repeats for the whole scenario ticks at most every 100ms")
        }
        return span
    }
}

extension DurationLiteral {
    /// A span for messages; the saturated end reads as "an overflowing duration".
    static func describe(_ span: TimeSpan) -> String {
        span.nanoseconds == Int64.max ? "this duration" : "\(span)"
    }
}

extension ParserState {
    /// Fails when the timeline first reaches past 24 hours or more than a million events with `line`'s.
    mutating func checkTimelineLimits(_ line: ScriptLine, events added: Int) throws(ParseFailure) {
        let most = ScenarioLimits.mostEvents
        let wasOver = eventCount > most
        eventCount = min(eventCount + min(added, most + 1), most + 1)
        let cursor = TokenCursor(line)
        if !wasOver && eventCount > most {
            let count = added > most ? "this line schedules" : "the timeline reaches"
            throw cursor.failure(
                at: line.tokens.first,
                "\(count) more than \(most.formatted) events (repetitions, keys and swipes)",
                hint: "a scenario schedules at most \(most.formatted) events; repeat less often or for less time")
        }
        let end = max(cursorTime, endTime) - Instant.zero
        if !timeLimitReported && end > ScenarioLimits.longestTime {
            timeLimitReported = true
            throw cursor.failure(
                at: line.tokens.first,
                "the timeline reaches \(DurationLiteral.describe(end)), past the \(ScenarioLimits.longestTimeText) limit",
                hint: "a scenario lasts at most 24 hours")
        }
    }

    /// Fails when `repeat COUNT:` alone asks for more copies than there may be elements.
    func checkRepeatLimit(_ count: Int, at token: ScriptToken?, cursor: TokenCursor) throws(ParseFailure) {
        guard count > ScenarioLimits.mostElements else { return }
        throw cursor.failure(
            at: token,
            "repeat \(count.formatted) is more than the \(ScenarioLimits.mostElements.formatted)-element limit",
            hint: "screens declare at most \(ScenarioLimits.mostElements.formatted) elements in all")
    }

    /// Counts one more element; fails on the first one past the limit (later ones are not parsed).
    mutating func countElement(at token: ScriptToken, cursor: TokenCursor) throws(ParseFailure) {
        elementCount += 1
        guard elementCount == ScenarioLimits.mostElements + 1 else { return }
        throw cursor.failure(
            at: token, "more than \(ScenarioLimits.mostElements.formatted) elements",
            hint: "screens declare at most \(ScenarioLimits.mostElements.formatted) elements in all")
    }
}

extension Int {
    /// `1,000,000`: thousands separated by commas, the same in every locale.
    var formatted: String {
        let digits = String(self.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return self < 0 ? "-" + result : result
    }
}

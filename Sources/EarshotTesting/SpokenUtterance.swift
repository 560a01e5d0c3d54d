import EarshotCore

/// One thing VoiceOver was asked to say, and what became of it: spoken in full, cut part-way, or never heard.
///
/// Times are measured from the start of the session.
///
/// ```swift
/// let echo = try #require(session.utterances(matching: "j").first)
/// #expect(echo.wasInterrupted)
/// #expect(echo.cutBy == "Results updated")
/// #expect(try #require(echo.end) - #require(echo.start) <= .milliseconds(10))
/// ```
public struct SpokenUtterance: Hashable, Sendable, CustomStringConvertible {
    /// What became of an utterance.
    public enum Outcome: Hashable, Sendable {
        /// Not started yet: waiting behind other speech.
        case queued
        /// Sounding now (the session's clock is inside it).
        case speaking
        /// Spoken to the end.
        case spoken
        /// Cut part-way; `by` is the text of the utterance that cut it, or what did (`swipe next`,
        /// `scenario ended`).
        case interrupted(by: String)
        /// Never started, for `reason`.
        case dropped(reason: DropReason)
    }

    /// The utterance's number in the session, in the order speech was requested.
    public var id: Int
    /// The full text VoiceOver was asked to say.
    public var text: String
    /// What kind of speech it is: `.focusRead`, `.announcement`, `.typingEcho`, `.poll`, `.hint` …
    public var kind: UtteranceKind
    /// The announcement priority (`.default` for everything that is not an announcement).
    public var priority: Priority
    /// What caused it, in words (`type "j" into query`, `announce`, `swipe next`).
    public var cause: String
    /// The VoiceOver rule that decided its fate (`V1` … `V13`, see SPEECH-MODEL.md).
    public var rule: String
    /// When it was asked for.
    public var requestedAt: Duration
    /// When it started sounding; nil if it never did.
    public var start: Duration?
    /// When it stopped sounding, at its natural end or at the cut; nil if it never sounded or still does.
    public var end: Duration?
    /// What became of it.
    public var outcome: Outcome
    /// What the listener heard: the whole text, the text up to the word the cut landed in, or "".
    public var heardText: String
    /// The words not heard in full because of a cut (the word the cut landed in, and the rest).
    public var lostWords: [String]

    /// True when it was spoken to the end.
    public var wasSpoken: Bool { outcome == .spoken }

    /// True when it was cut part-way.
    public var wasInterrupted: Bool {
        if case .interrupted = outcome { return true }
        return false
    }

    /// True when it never sounded.
    public var wasDropped: Bool {
        if case .dropped = outcome { return true }
        return false
    }

    /// The text of the utterance that cut this one, or what else did (`swipe next`); nil when not cut.
    public var cutBy: String? {
        if case .interrupted(let by) = outcome { return by }
        return nil
    }

    /// How long it sounded; nil if it has not stopped.
    public var duration: Duration? {
        guard let start, let end else { return nil }
        return end - start
    }

    /// `typingEcho "j" 2.000s–2.010s cut by "Results updated"`, for failure messages.
    public var description: String {
        let times = start.map { start in "\(Self.format(start))–\(end.map(Self.format) ?? "…")" } ?? ""
        let fate: String
        switch outcome {
        case .queued: fate = "queued"
        case .speaking: fate = "speaking"
        case .spoken: fate = "spoken"
        case .interrupted(let by): fate = "cut by \"\(by)\" after \"\(heardText)\""
        case .dropped(let reason): fate = "dropped (\(reason.rawValue))"
        }
        return "\(kind.rawValue) \"\(text)\" \(times) \(fate)".replacingOccurrences(of: "  ", with: " ")
    }

    static func format(_ duration: Duration) -> String { TimeSpan(duration).formatted }

    /// Builds the value from a timeline record; `timeline` resolves who cut it.
    @_optimize(none)  // Swift 6.3.1's release optimizer (CopyPropagation) crashes on this initializer
    init(_ record: UtteranceRecord, in timeline: Timeline) {
        id = record.utterance.id
        text = record.utterance.text
        kind = record.utterance.kind
        priority = record.utterance.priority
        cause = record.utterance.cause
        rule = record.rule
        requestedAt = Duration(record.utterance.requestedAt)
        start = record.start.map(Duration.init)
        end = record.stop.map(Duration.init)
        heardText = record.heardText
        lostWords = record.cutPoint?.lostWords ?? []
        outcome = Self.outcome(of: record.outcome, in: timeline)
        if case .speaking = record.outcome { heardText = "" }
    }

    /// The record's outcome in this API's terms.
    static func outcome(of outcome: EarshotCore.Outcome, in timeline: Timeline) -> Outcome {
        switch outcome {
        case .pending: return .queued
        case .speaking: return .speaking
        case .spoken: return .spoken
        case .interrupted(_, _, let interruption):
            let cutter = interruption.utterance.flatMap { timeline.record($0) }
            return .interrupted(by: cutter?.utterance.text ?? interruption.description)
        case .dropped(_, let reason, _): return .dropped(reason: reason)
        }
    }
}

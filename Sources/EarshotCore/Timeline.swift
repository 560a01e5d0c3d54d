/// One utterance and what became of it.
public struct UtteranceRecord: Hashable, Sendable {
    /// The request.
    public var utterance: Utterance
    /// The voice profile that speaks it.
    public var voice: VoiceProfile
    /// The rule that decided its fate when it was requested (`V1` …).
    public var rule: String
    /// What became of it.
    public var outcome: Outcome
    /// Its timing from the synthesizer, once it started.
    public var timing: SpeechTiming?
    /// Where it was cut, when it was.
    public var cutPoint: CutPoint?
    /// Its place in the run's one order of happenings (see `Timeline`), when it was requested.
    public var requestSequence: Int = 0
    /// Its place in that order when it started, or was dropped.
    public var outcomeSequence: Int = 0
    /// Its place in that order when it was cut, if it was.
    public var cutSequence: Int = 0

    /// Creates a record.
    public init(utterance: Utterance, voice: VoiceProfile, rule: String, outcome: Outcome = .pending) {
        self.utterance = utterance
        self.voice = voice
        self.rule = rule
        self.outcome = outcome
    }

    /// When it started speaking, if it did.
    public var start: Instant? {
        switch outcome {
        case .speaking(let start), .spoken(let start, _), .interrupted(let start, _, _): return start
        case .pending, .dropped: return nil
        }
    }

    /// When its sound stopped (end or cut), if it started and stopped.
    public var stop: Instant? {
        switch outcome {
        case .spoken(_, let end): return end
        case .interrupted(_, let cut, _): return cut
        case .pending, .speaking, .dropped: return nil
        }
    }

    /// True when it was cut.
    public var wasInterrupted: Bool {
        if case .interrupted = outcome { return true }
        return false
    }

    /// True when it was spoken to the end.
    public var wasSpoken: Bool {
        if case .spoken = outcome { return true }
        return false
    }

    /// What a listener heard: the whole text, the part before a cut, or nothing.
    public var heardText: String {
        switch outcome {
        case .spoken: return utterance.text
        case .interrupted: return cutPoint?.heardText ?? ""
        default: return ""
        }
    }

    /// True when it started and was cut before any of its words could be heard: at its first frame, or
    /// before its first word's sound began. Its text was posted and reached nobody.
    public var wasCutBeforeHeard: Bool {
        guard case .interrupted = outcome else { return false }
        return heardText.isEmpty
    }

    /// Frames of audio heard.
    public var heardFrames: Int {
        switch outcome {
        case .spoken: return timing?.frameCount ?? 0
        case .interrupted: return cutPoint?.heardFrames ?? 0
        default: return 0
        }
    }
}

/// A non-speech event on the timeline.
public enum TimelineEventKind: Hashable, Sendable {
    /// The user did something.
    case user(UserAction)
    /// The app did something (its description, e.g. `set results value "42 results"`).
    case app(String)
    /// VoiceOver focus moved (`to` nil: nowhere); `index` is the new position in reading order.
    case focus(from: String?, to: String?, index: Int?, cause: FocusCause)
    /// VoiceOver's screen-change earcon.
    case earcon(name: String, duration: TimeSpan)
    /// An app sound; `heard` is false with the sound off.
    case sound(name: String, duration: TimeSpan, heard: Bool)
    /// A media track started; `heard` is false with the sound off.
    case media(MediaTrack, heard: Bool)
    /// A caption shown until `until`.
    case caption(text: String, until: Instant)
    /// Text shown on screen, until `until` (a toast with a duration) or for good (nil).
    case visibleText(String, until: Instant? = nil)
    /// `announcementDidFinishNotification` with `wasSuccessful`.
    case announcementDidFinish(utterance: UtteranceID, text: String, wasSuccessful: Bool)
    /// Switch Control's scan highlighted an element.
    case scanHighlight(elementID: String)
    /// The element VoiceOver had focused disappeared.
    case focusLost(elementID: String)
    /// A network load started or finished (written `load NAME started|finished`, as app notes are).
    case load(name: String, phase: LoadPhase)
}

/// A timestamped non-speech event.
public struct TimelineEvent: Hashable, Sendable {
    /// When it happened.
    public var at: Instant
    /// What happened.
    public var kind: TimelineEventKind
    /// Its place in the run's one order of happenings (see `Timeline`).
    public var sequence: Int

    /// Creates an event.
    public init(at: Instant, kind: TimelineEventKind, sequence: Int = 0) {
        self.at = at
        self.kind = kind
        self.sequence = sequence
    }
}

/// Everything that happened in a run: utterances with outcomes, non-speech events and the screen over time.
///
/// Several things often happen at one instant (a keystroke, its echo, the app's reaction). Every request,
/// outcome, event and screen change carries a sequence number from one counter, so (instant, sequence) is the
/// one order in which they happened: the transcript, JSON Lines and checks all use it.
public struct Timeline: Sendable {
    /// Utterances in the order they were requested.
    public var utterances: [UtteranceRecord] = []
    /// Non-speech events in time order.
    public var events: [TimelineEvent] = []
    /// The screen after each change, from the start, kept as changes (see `ScreenHistory`).
    public var screens = ScreenHistory()
    /// When the run ended.
    public var end: Instant = .zero
    /// The audio rate of all speech.
    public var sampleRate: Int = 22050
    /// The profile simulated.
    public var profileName: String = "voiceover"

    /// Creates an empty timeline.
    public init() {}

    /// The record of utterance `id`.
    public func record(_ id: UtteranceID) -> UtteranceRecord? {
        utterances.indices.contains(id) && utterances[id].utterance.id == id
            ? utterances[id] : utterances.first { $0.utterance.id == id }
    }

    /// The screen as it was at `instant`, after everything that happened then (or, with `sequence`, only
    /// after what happened before that point of the order).
    public func screen(at instant: Instant, before sequence: Int = .max) -> Screen? {
        screens.screen(at: instant, before: sequence)
    }

    /// True for a poll that spoke something other than its element's text when it started: a value heard
    /// after it had already changed (`stale-poll-backlog`).
    public func isStalePoll(_ record: UtteranceRecord) -> Bool {
        guard record.utterance.kind == .poll, let start = record.start, let id = record.utterance.elementID,
            let element = screen(at: start, before: record.outcomeSequence)?.element(id)
        else { return false }
        let text = record.utterance.text
        return text != element.value && text != element.label
            && (element.value.isEmpty || !text.contains(element.value))
    }

    /// True when nothing of utterance `id` was ever heard: dropped, cut before a word, or never started.
    public func wasNeverHeard(_ id: UtteranceID) -> Bool {
        guard let record = record(id) else { return false }
        switch record.outcome {
        case .spoken, .speaking: return false
        case .interrupted: return record.wasCutBeforeHeard
        case .dropped, .pending: return true
        }
    }

    /// How a cut names what cut it: the interruption's description, with ` (itself never heard)` when the
    /// utterance that cut was never heard either, so no one reads it as something the listener heard.
    public func cutterDescription(_ interruption: Interruption) -> String {
        guard let id = interruption.utterance, wasNeverHeard(id) else { return interruption.description }
        return interruption.description + " " + Self.cutterNeverHeardNote
    }

    /// The words that mark a cutter that was itself never heard.
    public static let cutterNeverHeardNote = "(itself never heard)"

    /// The words that mark an utterance cut before anything of it was heard.
    public static let nothingHeardMark = "nothing heard"

    /// Utterances that produced sound, in start order.
    public var heardUtterances: [UtteranceRecord] {
        utterances.filter { $0.start != nil }.sorted {
            ($0.start ?? .zero, $0.utterance.id) < ($1.start ?? .zero, $1.utterance.id)
        }
    }

    /// Instants of the user's keystrokes.
    public var keystrokes: [Instant] {
        events.compactMap { event in
            if case .user(.type) = event.kind { return event.at }
            return nil
        }
    }
}

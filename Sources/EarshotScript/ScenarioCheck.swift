import EarshotCore

/// A `check "the card's Expected wording":` block: it passes when every assertion holds.
public struct ScenarioCheck: Sendable {
    /// The card's wording.
    public var name: String
    /// One per indented line.
    public var assertions: [ScenarioAssertion]
    /// The `check` line.
    public var location: SourceLocation
    /// `check "…" under talkback nvda:` — the readers it applies to; nil for every reader.
    public var readers: [ScreenReader]? = nil
}

/// One assertion line of a check.
public struct ScenarioAssertion: Sendable {
    /// What it asserts.
    public var kind: ScenarioAssertionKind
    /// The line as written (trimmed), for failure messages.
    public var text: String
    /// The line.
    public var location: SourceLocation
}

/// The assertion forms. Most lines are a *count* of timeline items in a window; the rest ask about the
/// tree or focus.
public enum ScenarioAssertionKind: Sendable {
    /// `QUANTIFIER [FATE] SUBJECT [on …] [matching "re"] [unless matching "re"] [clauses] [WINDOW]`: speech
    /// is counted by its fate (`heard` unless the line says `posted`, `heard in full`, `cut`, `dropped` or
    /// `lost`), e.g.
    /// `no announcement while typing`, `exactly 1 announcement matching "\d+ results" within 1s after
    /// typing stops`, `no scan stop on placeholders while orders loads`. `silent WINDOW` is
    /// `no speech WINDOW`; `captions appear WINDOW` is `at least 1 caption WINDOW`;
    /// `scan never stops on hidden elements` is `no scan stop on hidden elements`.
    case count(ScenarioCount)
    /// `element ID reads "phrase" [when focused]`, `element after ID reads matching "re"`: the element's
    /// spoken phrase (docs/speech-model.md, "How an element is read"). With `when focused`, the focus read the user
    /// got the last time they landed on it; without, the phrase at the end of the run.
    case reads(ScenarioElementReference, ScenarioTextMatch, whenFocused: Bool)
    /// `heard matching "re" at least every 1s [WINDOW]`: inside the window, no stretch longer than the
    /// span passes without a matching utterance being spoken (measured from the window's start or the
    /// end of the previous match to the start of the next, and from the last one to the window's end).
    case heardEvery(ScenarioTextMatch, interval: TimeSpan, window: ScenarioWindow?)
    /// `focus stays on ID when LOAD loads` (`element` set) or `focus does not jump when LOAD loads`
    /// (`element` nil): right after the load's block ran, focus is on the same element as before, or —
    /// when that element went away — on the element that took its reading position; moving to the top
    /// of the screen, to nothing, or by an app notification fails.
    case focusStays(element: String?, load: String)
    /// `swipe reaches ID [WINDOW]` / `scan reaches ID [WINDOW]`: the user's swipes (or the Switch
    /// Control scan) land on the element at least once in the window.
    case reaches(ScenarioNavigation, element: String, window: ScenarioWindow?)
    /// `element ID stays visible [WINDOW]`: once the element is visible inside the window, it is not
    /// hidden (nor removed) again before the window ends. An element never shown in the window fails.
    case staysVisible(element: String, window: ScenarioWindow?)
    /// `text visible "…"` / `text visible matching "re" [WINDOW]`: some visible text (a non-hidden
    /// element's label or value, a caption shown, `show text`) matches at some time in the window.
    case textVisible(ScenarioTextMatch, window: ScenarioWindow?)
    /// `screens A B C sound different`: the full reading of each screen (every reachable element's
    /// phrase in order) differs from every other's.
    case screensSoundDifferent([String])
    /// `focus is on ID at 2s` / `focus is on nothing at 2s`: where VoiceOver focus is at that instant, after
    /// everything that happened then.
    case focusAt(element: String?, at: Instant)
    /// `B starts [within SPAN | at least SPAN] after A ends`: the first heard utterance matching A ends
    /// before every heard B that starts after A started (a B that cut A fails), and there is at least
    /// one; `within`/`at least` bound the gap from A's end to the first such B's start.
    case startsAfter(ScenarioSpeechSelector, ScenarioSpeechSelector, gap: ScenarioBound?)
    /// `SELECTOR waits at most SPAN` / `waits at least SPAN`: every posted utterance matching it started,
    /// and the time from its request to its start is within the bound.
    case waits(ScenarioSpeechSelector, ScenarioBound)
}

/// Speech named in an ordering or waiting assertion: `[SUBJECT] [on ID] [matching "re"]`.
public struct ScenarioSpeechSelector: Hashable, Sendable {
    /// Which kind of speech (`announcement`, `focus read`, `hint`, `echo`, `poll read`, `speech` …).
    public var subject: ScenarioSubject
    /// `on ID`: only speech about that element.
    public var element: String?
    /// `matching "re"`: only speech whose text matches.
    public var matching: String?
}

/// `at most SPAN` / `within SPAN`, or `at least SPAN`.
public enum ScenarioBound: Hashable, Sendable {
    case atMost(TimeSpan)
    case atLeast(TimeSpan)

    /// Whether a span satisfies the bound.
    public func accepts(_ span: TimeSpan) -> Bool {
        switch self {
        case .atMost(let limit): span <= limit
        case .atLeast(let limit): span >= limit
        }
    }

    /// "at most 500ms".
    public var description: String {
        switch self {
        case .atMost(let limit): "at most \(limit)"
        case .atLeast(let limit): "at least \(limit)"
        }
    }
}

/// A count assertion's parts.
public struct ScenarioCount: Sendable {
    /// How many are allowed.
    public var quantifier: ScenarioQuantifier
    /// What is counted.
    public var subject: ScenarioSubject
    /// Which fate counts, for speech subjects: `heard` unless the line says otherwise.
    public var fate: ScenarioFate = .heard
    /// `on placeholders`, `on hidden elements`, `on ID`: only items about those elements.
    public var target: ScenarioTargetFilter?
    /// `matching "re"`: only items whose text matches (a regular expression, searched anywhere).
    public var matching: String?
    /// `unless matching "re"`: items whose text matches are not counted.
    public var unlessMatching: String?
    /// `by SUBJECT [matching "re"]`: only cuts made by that speech.
    public var cutBy: ScenarioSpeechSelector?
    /// `because REASON`: only drops for that reason.
    public var dropReason: DropReason?
    /// `wasSuccessful true|false`: only `announcementDidFinish` callbacks with that flag.
    public var wasSuccessful: Bool?
    /// The time window; `nil` = the whole run.
    public var window: ScenarioWindow?

    /// Creates a count.
    public init(
        quantifier: ScenarioQuantifier, subject: ScenarioSubject, fate: ScenarioFate = .heard,
        target: ScenarioTargetFilter? = nil, matching: String? = nil, unlessMatching: String? = nil,
        window: ScenarioWindow? = nil
    ) {
        self.quantifier = quantifier
        self.subject = subject
        self.fate = fate
        self.target = target
        self.matching = matching
        self.unlessMatching = unlessMatching
        self.window = window
    }
}

/// Which utterances a speech count counts, by what the listener got of them (`UtteranceFate`).
public enum ScenarioFate: String, Hashable, Sendable, CaseIterable {
    /// Every request, whatever became of it.
    case posted
    /// Some of it was heard (the default).
    case heard
    /// Spoken to its end.
    case heardInFull = "heard in full"
    /// Interrupted after it started (whether or not a word got out).
    case cut
    /// Never started.
    case dropped
    /// Posted, and nothing of it was heard: dropped, or cut before its first word.
    case lost

    /// Whether a record has this fate.
    public func includes(_ record: UtteranceRecord) -> Bool {
        switch self {
        case .posted: true
        case .heard: record.heardAnything
        case .heardInFull: record.heardInFull
        case .cut: record.wasInterrupted
        case .dropped: record.dropReason != nil
        case .lost: record.wasLost
        }
    }
}

/// `no`, `exactly N`, `at least N`, `at most N`.
public enum ScenarioQuantifier: Hashable, Sendable {
    case none
    case exactly(Int)
    case atLeast(Int)
    case atMost(Int)

    /// Whether a count satisfies the quantifier.
    public func accepts(_ count: Int) -> Bool {
        switch self {
        case .none: count == 0
        case .exactly(let n): count == n
        case .atLeast(let n): count >= n
        case .atMost(let n): count <= n
        }
    }
}

/// What a count assertion counts.
public enum ScenarioSubject: String, Hashable, Sendable, CaseIterable {
    /// App speech: announcements and the strings of screenChanged/layoutChanged/pageScrolled.
    case announcement
    /// Any utterance.
    case speech
    /// Reads caused by a focus move (swipe, touch, screenChanged, layoutChanged to an element).
    case focusRead = "focus read"
    /// Hints.
    case hint
    /// `updatesFrequently` poll reads (V10).
    case pollRead = "poll read"
    /// Poll reads whose text was not the element's current text when they started.
    case stalePollRead = "stale poll read"
    /// Typing echoes.
    case echo
    /// Utterances that were interrupted (`cut speech`).
    case cut
    /// Switch Control scan highlights.
    case scanStop = "scan stop"
    /// Elements the user's swipes landed on.
    case swipeStop = "swipe stop"
    /// Captions shown.
    case caption
    /// App sounds heard.
    case sound
    /// VoiceOver's earcons (the screen-change tones).
    case earcon
    /// `announcementDidFinish` callbacks the app received.
    case didFinish = "announcementDidFinish"

    /// True for subjects that count utterances, which a fate (`posted`, `dropped` …) can qualify.
    public var isSpeech: Bool {
        switch self {
        case .announcement, .speech, .focusRead, .hint, .pollRead, .stalePollRead, .echo, .cut: true
        case .scanStop, .swipeStop, .caption, .sound, .earcon, .didFinish: false
        }
    }
}

/// Which elements a count is restricted to.
public enum ScenarioTargetFilter: Hashable, Sendable {
    /// Elements marked `placeholder`.
    case placeholders
    /// Elements hidden at the time.
    case hiddenElements
    /// One element.
    case element(String)
}

/// An element named directly or by position.
public enum ScenarioElementReference: Hashable, Sendable {
    /// `element ID`.
    case id(String)
    /// `element after ID`: the next element in reading order (what one swipe right reaches).
    case after(String)
}

/// Exact text or a regular expression.
public enum ScenarioTextMatch: Hashable, Sendable {
    /// `"…"`: the whole text equals it.
    case exactly(String)
    /// `matching "re"`: the regular expression is found in the text.
    case matching(String)
}

/// Whose navigation a `reaches` assertion follows.
public enum ScenarioNavigation: String, Hashable, Sendable, CaseIterable {
    case swipe, scan
}

/// The time window of an assertion.
public enum ScenarioWindow: Hashable, Sendable {
    /// `while typing`: from the first typed character to the last.
    case whileTyping
    /// `after typing stops`: from the last typed character to the end of the run.
    case afterTypingStops
    /// `within 1s after typing stops`: from the last typed character, for the span.
    case withinAfterTypingStops(TimeSpan)
    /// `between 2s and 50s`.
    case between(Instant, Instant)
    /// `after 2s`.
    case after(Instant)
    /// `before 2s`.
    case before(Instant)
    /// `while LOAD loads`: from the `load` action to its completion.
    case whileLoading(String)
    /// `while MEDIA plays`.
    case whileMediaPlays(String)
    /// `while focused on ID`: every interval VoiceOver focus is on the element.
    case whileFocused(String)
    /// `after focus leaves ID`: from the first time focus leaves the element (after being on it).
    case afterFocusLeaves(String)
    /// `until focused on ID`: from the start until focus first lands on the element (or the end).
    case untilFocused(String)
    /// `after announcement matching "re"`: from the end of the first matching announcement (spoken or
    /// cut) to the end of the run.
    case afterAnnouncement(matching: String)
}

import EarshotCore

/// A headless VoiceOver listening to one ``TestScreen``, on a virtual clock you move by hand.
///
/// Nothing plays and no real time passes: a session that covers an hour of use runs in well under a second once
/// its phrases are synthesized. Durations and word positions come from the synthesizer you pass (espeak-ng in
/// Earshot), so the session knows when speech ends and which word a cut lands in.
///
/// ```swift
/// import EarshotSystem  // EspeakSynthesizer
/// import EarshotTesting
/// import Testing
///
/// @Test func typingEchoesEveryKeyAndAnnouncesOnce() throws {
///     let screen = TestScreen {
///         SearchField("query", label: "Search products")
///         Button("cart", label: "Cart", value: "0 items")
///     }
///     .onType(in: "query") {
///         .debounce(.milliseconds(600)) { .announcement("\(["jasmine": "2"], keyedBy: "query") results") }
///     }
///     let session = ScreenReaderSession(
///         screen: screen, synthesizer: try EspeakSynthesizer.shared(voicesDirectory: nil))
///     try session.focus("query")
///     try session.advance(by: .seconds(2))
///     try session.type("jasmine", every: .milliseconds(150))
///     try session.advance(by: .seconds(2))
///     #expect(session.utterances(matching: "2 results").count == 1)
///     #expect(session.lastSpokenPhrase == "2 results")
/// }
/// ```
///
/// User actions (``focus(_:)``, ``swipeNext()``, ``activate()``, ``type(_:every:)``) and app events
/// (``post(_:)``) happen at the current instant; ``advance(by:)`` moves the clock and lets speech, timers,
/// debounces and polling run. Then ask what was heard: ``spokenPhraseLog``, `utterances(matching:)`,
/// ``silence(between:and:)``, ``transcript``.
///
/// A session is not thread-safe; use it from one test at a time (each test makes its own).
public final class ScreenReaderSession {
    /// The engine underneath, for what this API does not cover.
    public let simulation: Simulation
    private var finished = false
    /// The names of the lookup tables the engine was given (it cannot be given more later).
    private let knownTables: Set<String>

    /// Creates a session showing `screen`, with VoiceOver focus nowhere yet.
    ///
    /// - Parameters:
    ///   - screen: The screen shown at the start.
    ///   - otherScreens: Screens the app can switch to with ``AppEvent/showScreen(_:)``.
    ///   - profile: Who is listening: `.voiceOver` (default settings), or a profile with adjusted
    ///     `voiceOver` settings (hint delay, poll interval, typing feedback …).
    ///   - voice: The voice VoiceOver speaks with (its rate sets every duration).
    ///   - synthesizer: Where durations come from: `try EspeakSynthesizer.shared(voicesDirectory: nil)`.
    ///   - lookupTables: Tables that ``post(_:)`` will read through `"\(table, keyedBy:)"`; tables used in the
    ///     screens' reactions are known already.
    public convenience init(
        screen: TestScreen, otherScreens: [TestScreen] = [], profile: UserProfile = .voiceOver,
        voice: VoiceProfile = .standard, synthesizer: any Synthesizer, lookupTables: [[String: String]] = []
    ) {
        // Headless runs only need timings, so no synthesized audio is kept (`audioCacheLimit: 0`).
        self.init(
            screen: screen, otherScreens: otherScreens, profile: profile, voice: voice,
            speech: SpeechLibrary(synthesizer: synthesizer, audioCacheLimit: 0), lookupTables: lookupTables)
    }

    /// Creates a session that shares a speech library with other sessions, so each phrase is synthesized once
    /// for all of them (a suite of many sessions runs faster).
    ///
    /// Make the library with `SpeechLibrary(synthesizer:audioCacheLimit: 0)` when no audio is needed.
    public init(
        screen: TestScreen, otherScreens: [TestScreen] = [], profile: UserProfile = .voiceOver,
        voice: VoiceProfile = .standard, speech: SpeechLibrary, lookupTables: [[String: String]] = []
    ) {
        let all = [screen] + otherScreens
        var tables: [String: [String: String]] = [:]
        for each in all { tables.merge(each.tables) { first, _ in first } }
        for table in lookupTables { tables[AppText.tableName(table)] = table }
        knownTables = Set(tables.keys)
        simulation = Simulation(
            screens: all.map(\.screen), profile: profile, voice: voice, speech: speech, tables: tables,
            reactions: all.flatMap(\.reactions))
    }

    /// The time since the session started.
    public var now: Duration { Duration(simulation.now) }

    /// The id of the element VoiceOver focus is on, if any.
    public var focusedElement: String? { simulation.focusedID }

    /// The element with `id` as it is now (label, value, traits), hidden or not; nil when there is none.
    public func element(_ id: String) -> AccessibilityElement? { simulation.screen.element(id) }

    /// The element with `id` as it was at `instant` after the start (what a poll at that moment read).
    public func element(_ id: String, at instant: Duration) -> AccessibilityElement? {
        simulation.timeline.screen(at: Instant(instant))?.element(id)
    }

    // MARK: The user

    /// Moves VoiceOver focus to the element (a touch, or a test's starting point); it is read.
    public func focus(_ id: String) throws {
        try requireExposed(id)
        try perform(.focus(id))
    }

    /// One-finger swipe right: focus moves to the next element and it is read. At the last element nothing
    /// happens.
    public func swipeNext() throws { try perform(.swipeNext) }

    /// One-finger swipe left: focus moves to the previous element and it is read.
    public func swipePrevious() throws { try perform(.swipePrevious) }

    /// Double tap: activates the focused element (a switch flips and says its new state; the screen's
    /// ``TestScreen/onActivate(_:_:)`` reactions run).
    public func activate() throws {
        guard let focused = simulation.focusedID else { throw ScreenReaderSessionError.nothingFocused }
        try requireExposed(focused)
        try perform(.activate(nil))
    }

    /// Activates the element `id` without moving focus to it.
    public func activate(_ id: String) throws {
        try requireExposed(id)
        try perform(.activate(id))
    }

    /// Types `text` into the focused text field, one character every `interval`.
    ///
    /// The first character goes in now; the call returns `interval` after the last one, so
    /// `type("jasmine", every: .milliseconds(150))` moves the clock by 1.05 s. VoiceOver echoes each character
    /// (with the default typing feedback) and the screen's ``TestScreen/onType(in:_:)`` reactions run.
    public func type(_ text: String, every interval: Duration = .milliseconds(150)) throws {
        for character in text {
            guard let focused = simulation.focusedID, let element = simulation.screen.element(focused),
                element.traits.isTextEntry
            else { throw ScreenReaderSessionError.notATextField(focused: simulation.focusedID) }
            try perform(.type(character))
            try advance(by: interval)
        }
    }

    // MARK: The app

    /// Does what the app would do now: post a notification, change elements, start a timer.
    ///
    /// ```swift
    /// try session.post(.announcement("Added to cart. 3 items."))
    /// try session.post(.value(of: "cart", to: "3 items"), .announcement("Saved", priority: .high))
    /// ```
    public func post(_ events: AppEvent...) throws { try post(events) }

    /// Does what the app would do now, for events in an array.
    public func post(_ events: [AppEvent]) throws {
        try requireRunning()
        for event in events {
            if let unknown = event.tables.keys.sorted().first(where: { !knownTables.contains($0) }) {
                throw ScreenReaderSessionError.unknownLookupTable(event.tables[unknown] ?? [:])
            }
        }
        simulation.run(events.map(\.action), origin: simulation.now)
        try simulation.advance(to: simulation.now)
    }

    // MARK: Time

    /// Moves the clock forward: speech plays out, timers fire, debounces settle, polls tick.
    public func advance(by duration: Duration) throws {
        try requireRunning()
        try simulation.advance(by: TimeSpan(duration))
    }

    /// Moves the clock to `instant` after the start (does nothing if that is in the past).
    public func advance(to instant: Duration) throws {
        try requireRunning()
        try simulation.advance(to: Instant(instant))
    }

    /// Ends the session now: speech still sounding is cut (`scenario ended`), queued speech dropped, timers
    /// stopped. Afterwards only the questions about what was heard work.
    public func finish() throws {
        try requireRunning()
        try simulation.finish(at: simulation.now)
        finished = true
    }

    // MARK: Helpers

    private func perform(_ action: UserAction) throws {
        try requireRunning()
        simulation.perform(action)
        try simulation.advance(to: simulation.now)  // runs what is due now and rethrows a synthesizer failure
    }

    private func requireRunning() throws {
        if finished { throw ScreenReaderSessionError.finished }
    }

    private func requireExposed(_ id: String) throws {
        guard simulation.screen.element(id) != nil else {
            throw ScreenReaderSessionError.noSuchElement(id, known: simulation.screen.allIDs)
        }
        guard simulation.screen.isExposed(id) else { throw ScreenReaderSessionError.hidden(id) }
    }
}

/// Why a ``ScreenReaderSession`` refused an action.
public enum ScreenReaderSessionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No element has this id on the current screen.
    case noSuchElement(String, known: [String])
    /// The element, or a container around it, is hidden from VoiceOver.
    case hidden(String)
    /// `activate()` with VoiceOver focus nowhere.
    case nothingFocused
    /// `type(_:every:)` while focus is not on a search or text field.
    case notATextField(focused: String?)
    /// `post(_:)` with a lookup table the session was not told about when it was created.
    case unknownLookupTable([String: String])
    /// The session was finished.
    case finished

    /// The error in words.
    public var description: String {
        switch self {
        case .noSuchElement(let id, let known):
            return "no element \"\(id)\" on the screen (ids: \(known.joined(separator: ", ")))"
        case .hidden(let id):
            return "element \"\(id)\" is hidden from VoiceOver"
        case .nothingFocused:
            return "nothing is focused: focus an element before activating"
        case .notATextField(let focused):
            return "cannot type: focus is on \(focused.map { "\"\($0)\"" } ?? "nothing"), not a text or search field"
        case .unknownLookupTable:
            return "post(_:) reads a lookup table the session does not know: pass it as `lookupTables:` when "
                + "creating the session (the engine fixes its tables at the start)"
        case .finished:
            return "the session was finished"
        }
    }
}

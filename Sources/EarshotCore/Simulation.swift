/// Something that wants to know, as it happens, when speech starts and stops: live playback.
public enum SpeechSignal: Sendable {
    /// An utterance starts now; its timing holds what is known so far (its audio is synthesized as it is heard).
    case started(UtteranceRecord)
    /// An utterance was cut now, after `heardFrames` frames.
    case cut(UtteranceID, heardFrames: Int)
    /// An utterance ended on its own now.
    case finished(UtteranceID)
    /// A non-speech event happened now.
    case event(TimelineEvent)
}

/// The one engine: a discrete-event simulation of a screen reader listening to an app and a user.
///
/// It owns the scheduler, the accessibility tree, the VoiceOver cursor, the speech channel, the app's
/// reactions and the policy state machines (debounce, poller, hint timer, Switch Control scan), and it writes
/// the timeline. Headless runs, WAV rendering and live playback all drive this class; none has its own rules.
/// Inputs are applied at the scheduler's current instant; schedule them with `schedule(_:at:)` and move time
/// with `advance(to:)`.
public final class Simulation {
    /// The scheduler whose clock is the simulation's clock.
    public let scheduler = Scheduler()
    /// The simulated user.
    public let profile: UserProfile
    /// The voice VoiceOver speaks with.
    public let voice: VoiceProfile
    /// Where durations and word starts come from.
    public let speech: SpeechLibrary
    /// What happened so far.
    public internal(set) var timeline = Timeline()
    /// The screen now.
    public internal(set) var screen: Screen {
        didSet { cachedIndex = nil }
    }
    /// The element VoiceOver focus is on.
    public internal(set) var focusedID: String?
    /// Receives speech starts, cuts and ends as they happen (live mode).
    public var onSignal: ((SpeechSignal) -> Void)?

    var screens: [String: Screen]
    var tables: [String: [String: String]]
    var reactions: [AppTrigger: [[AppAction]]] = [:]
    /// Elements whose `on change` block is running (its own changes do not trigger it again).
    var reactingToChange: Set<String> = []
    var channel = SpeechChannel()
    var speakingEnd: (id: UtteranceID, timer: TimerID)?
    var debouncers: [String: (machine: Debouncer, timer: TimerID?)] = [:]
    var poll: (machine: Poller, elementID: String, timer: TimerID)?
    var hint = HintTimer()
    var hintTimer: TimerID?
    var scanTimer: TimerID?
    var scanHighlightID: String?
    var failure: (any Error)?
    /// Whether the next utterance is likely heard to its end, from the latest ones: how much of it to synthesize.
    var outlook = SpeechOutlook()
    /// Lookups into `screen`, built when first needed after a tree change.
    var cachedIndex: ScreenIndex?
    /// The one counter that orders everything happening at one instant (see `Timeline`).
    var sequence = 0
    /// How deep inside `run(_:origin:iteration:)` the app is: tree changes made in one batch land together.
    var batchDepth = 0
    /// Focus position before the batch's first tree change, while focus has not been settled since.
    var batchFocusIndex: Int??

    /// Creates a simulation of `screens` (the first is shown at the start; with none, an empty screen).
    public init(
        screens: [Screen], profile: UserProfile = .voiceOver, voice: VoiceProfile = .standard,
        speech: SpeechLibrary, tables: [String: [String: String]] = [:], reactions: [AppReaction] = []
    ) {
        self.profile = profile
        self.voice = voice
        self.speech = speech
        self.screen = screens.first ?? Screen(name: "", elements: [])
        self.screens = Dictionary(screens.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.tables = tables
        for reaction in reactions { self.reactions[reaction.trigger, default: []].append(reaction.actions) }
        timeline.sampleRate = speech.sampleRate
        timeline.profileName = profile.name
        timeline.screens.record(screen, at: .zero, sequence: 0)
    }

    /// The next number in the run's one order of happenings.
    func nextSequence() -> Int {
        sequence += 1
        return sequence
    }

    /// The current instant.
    public var now: Instant { scheduler.now }

    /// Lookups into the screen now: built once per tree change, not once per swipe.
    var screenIndex: ScreenIndex {
        if let cachedIndex { return cachedIndex }
        let index = ScreenIndex(screen)
        cachedIndex = index
        return index
    }

    // MARK: Driving

    /// Schedules a user action.
    public func schedule(_ action: UserAction, at instant: Instant) {
        scheduler.schedule(at: instant) { [unowned self] in perform(action) }
    }

    /// Schedules app actions; `origin` and `iteration` feed `{clock}`, `{countdown}` and `{n}`.
    public func schedule(_ actions: [AppAction], at instant: Instant, origin: Instant? = nil, iteration: Int = 1) {
        scheduler.schedule(at: instant) { [unowned self] in
            run(actions, origin: origin ?? instant, iteration: iteration)
        }
    }

    /// True while something is speaking or waiting to speak.
    public var isSpeaking: Bool { channel.current != nil || !channel.queue.isEmpty }

    /// Moves the clock to `instant`, running everything due; rethrows a synthesizer failure.
    public func advance(to instant: Instant) throws {
        scheduler.advance(to: instant)
        if let failure { throw failure }
    }

    /// Moves the clock forward by `span`.
    public func advance(by span: TimeSpan) throws { try advance(to: now + span) }

    /// Starts Switch Control's auto-scan now (does nothing for other profiles or when already scanning).
    public func startScanning() {
        guard profile.technology == .switchControl, scanTimer == nil else { return }
        startScan()
    }

    /// Ends the run at `instant`: speech still sounding is cut, the queue dropped, timers stopped.
    public func finish(at instant: Instant) throws {
        try advance(to: instant)
        apply(channel.stopAll(cause: "scenario ended", reason: .scenarioEnded))
        if let speakingEnd { scheduler.cancel(speakingEnd.timer) }
        speakingEnd = nil
        stopPolling()
        if let scanTimer { scheduler.cancel(scanTimer) }
        if let hintTimer { scheduler.cancel(hintTimer) }
        timeline.end = instant
    }

    /// Performs a user action now.
    public func perform(_ action: UserAction) {
        record(.user(action))
        switch action {
        case .swipeNext, .swipePrevious:
            let index = screenIndex
            let order = index.order
            guard !order.isEmpty else { return }
            let current = focusedID.flatMap(index.position(of:))
            let next: Int
            if action == .swipeNext {
                next = current.map { min($0 + 1, order.count - 1) } ?? 0
            } else {
                next = current.map { max($0 - 1, 0) } ?? 0
            }
            if let current, current == next { return }  // VoiceOver's boundary "bonk": no movement
            moveFocus(to: order[next].id, request: .focusMove, kind: .focusRead, cause: .user(action))
        case .focus(let id):
            guard screenIndex.isExposed(id) else { return }
            moveFocus(to: id, request: .focusMove, kind: .focusRead, cause: .user(action))
        case .activate(let explicit):
            guard let id = explicit ?? focusedID, screenIndex.isExposed(id) else { return }
            activate(id)
        case .type(let character):
            guard let id = focusedID, let element = screenIndex.element(id), element.traits.isTextEntry else { return }
            updateScreen(id) { $0.value.append(character) }
            echoTyping(character, into: id)
            react(to: .typed(in: id))
        case .submit: submit()
        case .adjust(let direction): adjust(direction)
        }
    }

    /// Runs app actions now (`post` in the headless API), as one UI update.
    ///
    /// [SET] Tree changes made in one batch land together, as one SwiftUI/UIKit update does: if they took the
    /// focused element away, VoiceOver settles focus once — at the end of the batch, or before an announcement
    /// the batch posts after the changes (so that announcement is heard, by V1, over the re-read).
    public func run(_ actions: [AppAction], origin: Instant, iteration: Int = 1) {
        batchDepth += 1
        for action in actions { run(action, origin: origin, iteration: iteration) }
        batchDepth -= 1
        if batchDepth == 0 { settleFocus() }
    }

    /// Settles focus after the batch's tree changes, if they took the focused element away.
    func settleFocus() {
        guard let index = batchFocusIndex else { return }
        batchFocusIndex = nil
        refocusIfLost(previousIndex: index)
    }

    /// Runs the app's reactions to `trigger` after the app's reaction delay (the next run-loop turn).
    func react(to trigger: AppTrigger) {
        for actions in reactions[trigger] ?? [] {
            scheduler.schedule(after: profile.voiceOver.appReactionDelay) { [unowned self] in
                // A change an `on change` block makes to its own element does not run the block again.
                guard case .changed(let id) = trigger else { return run(actions, origin: now) }
                reactingToChange.insert(id)
                run(actions, origin: now)
                reactingToChange.remove(id)
            }
        }
    }

    // MARK: Focus

    func moveFocus(
        to id: String, request: SpeechRequest, kind: UtteranceKind, cause: FocusCause, spokenText: String? = nil
    ) {
        let previous = focusedID
        focusedID = id
        let lookup = screenIndex
        record(.focus(from: previous, to: id, index: lookup.position(of: id), cause: cause))
        stopPolling()
        disarmHint()
        guard let element = lookup.element(id) else { return }
        let text = spokenText ?? phrase(element)
        // A screenChanged string is spoken instead of the element: it is not a read of it (no hint follows).
        speak(text, kind: kind, request: request, elementID: spokenText == nil ? id : nil, cause: cause.description)
        if element.traits.contains(.updatesFrequently) { startPolling(element) }
        react(to: .focused(id))
    }

    /// What VoiceOver says for `element` of the screen now, in its place in the navigation order.
    func phrase(_ element: AccessibilityElement) -> String {
        element.spokenDescription(
            screenIndex.phraseContext(of: element.id, traitWords: profile.voiceOver.traitWords))
    }

    func activate(_ id: String) {
        if let element = screenIndex.element(id), let state = element.switchState {
            let flipped: SwitchState = state == .on ? .off : .on
            updateScreen(id) { $0.switchState = flipped }
            speak(flipped.rawValue, kind: .valueEcho, request: .valueEcho, elementID: id, cause: "activate \(id)")
        }
        react(to: .activated(id))
    }

    /// [SET] When the focused element disappears, VoiceOver lands on the element now at the same place in the
    /// reading order (the last one if the list got shorter) and reads it. The speech model does not pin this down;
    /// the skeleton-noise card's "focus jumps" is what it lets a check see.
    func refocusIfLost(previousIndex: Int?) {
        guard let id = focusedID, !screenIndex.isExposed(id) else { return }
        record(.focusLost(elementID: id))
        let order = screenIndex.order
        guard !order.isEmpty else {
            loseFocus(cause: .focusedElementDisappeared)
            return
        }
        let index = min(previousIndex ?? 0, order.count - 1)
        moveFocus(to: order[index].id, request: .focusMove, kind: .focusRead, cause: .focusedElementDisappeared)
    }

    // MARK: Typing

    func echoTyping(_ character: Character, into id: String) {
        let feedback = profile.voiceOver.typingFeedback
        let cause = "type \"\(character)\" into \(id)"
        let isWordEnd = character.isWhitespace || character.isPunctuation
        if feedback == .characters || feedback == .charactersAndWords {
            let text = character == " " ? "space" : String(character)
            speak(text, kind: .typingEcho, request: .typingEcho, elementID: id, cause: cause)
        }
        if (feedback == .words || feedback == .charactersAndWords), isWordEnd,
            let value = screenIndex.element(id)?.value
        {
            let word = value.dropLast().split(whereSeparator: { $0.isWhitespace || $0.isPunctuation }).last
            if let word {
                speak(String(word), kind: .typingEcho, request: .typingEcho, elementID: id, cause: cause)
            }
        }
    }

    // MARK: Tree changes

    /// Changes an element. Changes made in one instant land together, as one SwiftUI/UIKit update does: whether
    /// focus lost its element is decided once they all are in.
    func updateScreen(_ id: String, _ change: (inout AccessibilityElement) -> Void) {
        // The index is taken out of the cache so that the refresh below mutates the only copy of it.
        var lookup = screenIndex
        cachedIndex = nil
        let index = focusedID.flatMap(lookup.position(of:))
        // The first element with the id in document order, as `Screen.update(_:_:)` finds it, reached by its path.
        guard let path = lookup.path(of: id), let old = lookup.element(id) else {
            cachedIndex = lookup
            return
        }
        // Changed in place only when the screen's arrays on the way to the element are not shared with the index.
        lookup.release(path: path, in: screen)
        guard screen.update(at: path, change) else { return }
        if lookup.refresh(changed: id, from: old, in: screen) { cachedIndex = lookup }
        let sequence = nextSequence()
        if let new = screen.element(at: path) {
            timeline.screens.recordChange(at: now, sequence: sequence, path: path, from: old, to: new, in: screen)
            if new.value != old.value { valueChanged(id) }
        }
        if batchDepth > 0 {
            if batchFocusIndex == nil { batchFocusIndex = .some(index) }
        } else {
            refocusIfLost(previousIndex: index)
        }
    }

    /// Focus goes nowhere: nothing focusable is left. Polling and a pending hint stop with it.
    func loseFocus(cause: FocusCause) {
        let previous = focusedID
        focusedID = nil
        stopPolling()
        disarmHint()
        if previous != nil { record(.focus(from: previous, to: nil, index: nil, cause: cause)) }
    }

    func templateContext(origin: Instant, iteration: Int) -> TemplateContext {
        var context = TemplateContext(
            element: { [unowned self] id in screenIndex.element(id) }, tables: tables, elapsed: now - origin,
            iteration: iteration)
        // A lookup miss stops the run: the text it would have made is not what the script meant.
        context.missingEntry = { [unowned self] miss in
            if failure == nil { failure = miss.at(now) }
        }
        return context
    }

    func record(_ kind: TimelineEventKind) {
        let event = TimelineEvent(at: now, kind: kind, sequence: nextSequence())
        timeline.events.append(event)
        onSignal?(.event(event))
    }

    func describe(_ action: UserAction) -> String {
        switch action {
        case .swipeNext: return "swipe next"
        case .swipePrevious: return "swipe previous"
        case .focus(let id): return "touch \(id)"
        case .activate(let id): return "activate \(id ?? focusedID ?? "")"
        case .type(let character): return "type \"\(character)\""
        case .submit: return "submit"
        case .adjust(let direction): return "swipe \(direction.rawValue)"
        }
    }
}

/// The app-side debounce of the cards — `.task(id: query) { try await Task.sleep(for: .milliseconds(600)) … }` —
/// as a pure state machine: each trigger cancels the pending run and arms a new one.
///
/// Model: swift-async-algorithms' `debounce`. The driver owns the timer; this type only says what to do.
public struct Debouncer: Hashable, Sendable {
    /// What the driver must do after an event.
    public enum Action: Hashable, Sendable {
        /// Cancel the armed timer (generation), if any, and arm a new one for `deadline` with `generation`.
        case arm(deadline: Instant, generation: Int, cancelling: Int?)
        /// Run the debounced work now.
        case run
        /// Nothing to do (a stale timer fired).
        case ignore
    }

    /// The quiet period after the last trigger.
    public let delay: TimeSpan
    /// The generation of the armed timer, if one is armed.
    public private(set) var armed: Int?
    private var nextGeneration = 0

    /// Creates a debouncer with a quiet period.
    public init(delay: TimeSpan) { self.delay = delay }

    /// A trigger at `now` (a keystroke, a new query).
    public mutating func trigger(at now: Instant) -> Action {
        let previous = armed
        let generation = nextGeneration
        nextGeneration += 1
        armed = generation
        return .arm(deadline: now + delay, generation: generation, cancelling: previous)
    }

    /// The timer of `generation` fired.
    public mutating func fired(generation: Int) -> Action {
        guard armed == generation else { return .ignore }
        armed = nil
        return .run
    }
}

/// V10: what the poller of a focused `updatesFrequently` element last got heard, as a pure state machine.
///
/// A tick asks what changed since the element was last heard; the channel's rule table decides whether it is
/// spoken (a busy channel skips the tick). Only a poll that is actually heard moves the state on, so a value that
/// changed twice between two heard polls is heard once, as its latest value, and nothing stale ever queues.
public struct Poller: Hashable, Sendable {
    /// The label last heard.
    public private(set) var heardLabel: String
    /// The value last heard.
    public private(set) var heardValue: String

    /// Starts polling an element whose label and value were just read.
    public init(label: String, value: String) {
        heardLabel = label
        heardValue = value
    }

    /// What a tick would speak for the element's current label and value: the changed label and/or value,
    /// or nil when nothing changed since it was last heard.
    public func changedText(label: String, value: String) -> String? {
        guard label != heardLabel || value != heardValue else { return nil }
        let element = AccessibilityElement(id: "", label: label, value: value)
        return element.polledText(previousLabel: heardLabel, previousValue: heardValue)
    }

    /// The poll of this label and value started speaking.
    public mutating func heard(label: String, value: String) {
        heardLabel = label
        heardValue = value
    }
}

/// V12: the hint timer as a pure state machine. A focus read that ends uninterrupted arms it; any new speech or
/// focus move disarms it; when it fires, the hint is spoken.
public struct HintTimer: Hashable, Sendable {
    /// What the driver must do.
    public enum Action: Hashable, Sendable {
        case arm(deadline: Instant, hint: String, generation: Int)
        case disarm(generation: Int)
        case speak(hint: String, elementID: String)
        case none
    }

    private var armed: (generation: Int, hint: String, elementID: String)?
    private var nextGeneration = 0

    /// Creates a disarmed timer.
    public init() {}

    public static func == (lhs: HintTimer, rhs: HintTimer) -> Bool {
        lhs.armed?.generation == rhs.armed?.generation && lhs.nextGeneration == rhs.nextGeneration
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(armed?.generation)
        hasher.combine(nextGeneration)
    }

    /// True while a hint is pending.
    public var isArmed: Bool { armed != nil }

    /// A focus read of `elementID` ended uninterrupted at `now`.
    public mutating func focusReadFinished(
        elementID: String, hint: String, at now: Instant, settings: VoiceOverSettings
    ) -> Action {
        guard settings.hintsEnabled, !hint.isEmpty else { return disarm() }
        let generation = nextGeneration
        nextGeneration += 1
        armed = (generation, hint, elementID)
        return .arm(deadline: now + settings.hintDelay, hint: hint, generation: generation)
    }

    /// New speech started or focus moved: a pending hint is cancelled.
    public mutating func disarm() -> Action {
        guard let armed else { return .none }
        self.armed = nil
        return .disarm(generation: armed.generation)
    }

    /// The timer of `generation` fired.
    public mutating func fired(generation: Int) -> Action {
        guard let armed, armed.generation == generation else { return .none }
        self.armed = nil
        return .speak(hint: armed.hint, elementID: armed.elementID)
    }
}

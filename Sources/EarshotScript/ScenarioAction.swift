import EarshotCore

/// Something the app does: in a reaction, a `load`, a `debounce`/`after` block or on the timeline.
public struct ScenarioAppAction: Sendable {
    /// What it does.
    public var kind: ScenarioAppActionKind
    /// The action's line (its first token).
    public var location: SourceLocation
}

/// The app actions; names mirror Apple's API.
public enum ScenarioAppActionKind: Sendable {
    /// `announce "…" [priority high|low|default] [queued]`: `AccessibilityNotification.Announcement`.
    case announce(ScenarioTemplate, priority: ScenarioPriority, queued: Bool)
    /// `set ID value|label|hint "…"`, `set ID hidden true|false`, `set ID switch on|off`.
    case set(element: String, ScenarioProperty)
    /// `debounce 600ms:` the `.task(id:)` + `Task.sleep` pattern: each trigger of the enclosing reaction
    /// cancels the pending block and starts the wait again; the block runs once the wait completes.
    case debounce(TimeSpan, [ScenarioAppAction])
    /// `after 2s:` runs the block once, the span after this action runs (not cancelled by later triggers).
    case after(TimeSpan, [ScenarioAppAction])
    /// `screenChanged [ID|"text"]`: `UIAccessibility.Notification.screenChanged`.
    case screenChanged(ScenarioNotificationArgument)
    /// `layoutChanged [ID|"text"|nil]`: `UIAccessibility.Notification.layoutChanged`.
    case layoutChanged(ScenarioNotificationArgument)
    /// `pageScrolled "text"`: `UIAccessibility.Notification.pageScrolled`.
    case pageScrolled(ScenarioTemplate)
    /// `play sound NAME [duration 0.4s]`: an app sound (earcon-like, no text).
    case playSound(name: String, duration: TimeSpan?)
    /// `play media NAME`: start a declared media item (its narration is heard, its captions shown when
    /// the profile has captions on and the media has a caption track).
    case playMedia(name: String)
    /// `show text "…" [for 3s]`: on-screen text that is not an accessibility element (a toast, a
    /// banner drawn over the content). Recorded on the visual channel.
    case showText(ScenarioTemplate, duration: TimeSpan?)
    /// `show screen NAME`: replace the tree by another declared screen without a notification.
    case showScreen(name: String)
    /// `load NAME after 2s [on 3g 6s]…:` a network load; its block runs when it completes.
    case load(ScenarioLoad)
    /// `ssip PRIORITY "…" [client NAME]`, `ssip stop|cancel [client NAME]`: a native speech-dispatcher event.
    case ssip(ScenarioSSIP)
}

/// `UIAccessibilityPriority` for an announcement (rules V1–V3, docs/speech-model.md).
public enum ScenarioPriority: String, Hashable, Sendable, CaseIterable {
    case low, `default`, high
}

/// What `set` changes.
public enum ScenarioProperty: Hashable, Sendable {
    case value(ScenarioTemplate)
    case label(ScenarioTemplate)
    case hint(ScenarioTemplate)
    case hidden(Bool)
    case switchOn(Bool)
}

/// The argument of `screenChanged` / `layoutChanged`.
public enum ScenarioNotificationArgument: Hashable, Sendable {
    /// No argument (`nil`): screenChanged focuses the first element; layoutChanged does nothing (V7).
    case none
    /// An element to move focus to.
    case element(String)
    /// A string to speak (V8).
    case text(ScenarioTemplate)
}

/// A network load: how long it takes and what happens when it completes.
public struct ScenarioLoad: Sendable {
    /// The load's name, used by checks (`while orders loads`).
    public var name: String
    /// The delay when no `on NETWORK` entry matches the profile's network.
    public var delay: TimeSpan
    /// `on 3g 6s` entries: network name (lowercased) to delay.
    public var networkDelays: [String: TimeSpan]
    /// The block run on completion.
    public var actions: [ScenarioAppAction]

    /// The delay on a network: its own entry if there is one, else the default `after` delay.
    public func delay(on network: String?) -> TimeSpan {
        guard let network, let specific = networkDelays[network.lowercased()] else { return delay }
        return specific
    }
}

/// Something the user does on the timeline.
public struct ScenarioUserAction: Sendable {
    /// What the user does.
    public var kind: ScenarioUserActionKind
    /// The action's first token.
    public var location: SourceLocation
}

/// The user actions.
public enum ScenarioUserActionKind: Sendable {
    /// `focus ID`: touch the element (VoiceOver focus lands there and reads it, V4).
    case focus(element: String)
    /// `swipe next|previous|up|down [N times] [every 300ms]`: N swipes, the first at the line's time; up and
    /// down adjust the focused slider, picker or stepper.
    case swipe(ScenarioSwipeDirection, times: Int, interval: TimeSpan)
    /// `activate [ID]`: double-tap the element (the focused one when no id is given).
    case activate(element: String?)
    /// `type "text" [every 150ms]`: one character per interval, the first at the line's time.
    case type(String, interval: TimeSpan)
    /// `scan`: start Switch Control auto-scan from the first element.
    case scan
    /// `submit`: press Return in the focused element.
    case submit
}

/// A swipe's direction.
public enum ScenarioSwipeDirection: String, Hashable, Sendable, CaseIterable {
    /// Right: the next element.
    case next
    /// Left: the previous element.
    case previous
    /// Up: increments the focused adjustable element (slider, picker, stepper).
    case up
    /// Down: decrements it.
    case down
}

/// What the app does in response to the user.
public struct ScenarioReaction: Sendable {
    /// The trigger.
    public var trigger: ScenarioTrigger
    /// The block, in order.
    public var actions: [ScenarioAppAction]
    /// The `on` line.
    public var location: SourceLocation
}

/// `on type in ID:`, `on activate ID:`, `on focus ID:`, `on submit ID:`, `on change ID:`, `on increment ID:`,
/// `on decrement ID:`.
public enum ScenarioTrigger: Hashable, Sendable {
    /// Each character typed into the element (the element's value already includes it).
    case typeIn(element: String)
    /// The element is activated.
    case activate(element: String)
    /// VoiceOver focus lands on the element.
    case focus(element: String)
    /// Return is pressed in the element (`.onSubmit`).
    case submit(element: String)
    /// The element's value changes: typing, an adjust, or the app's own `set` (`.onChange(of:)`); not
    /// the changes this reaction itself makes.
    case change(element: String)
    /// The user swipes up on the adjustable element (`accessibilityIncrement`).
    case increment(element: String)
    /// The user swipes down on it (`accessibilityDecrement`).
    case decrement(element: String)
}

/// One line of the timeline.
public struct ScenarioTimedEvent: Sendable {
    /// When it happens (resolved from `at T`, `+D` or the running cursor).
    public var time: Instant
    /// `every D for D` / `every D times N` / `every D until T`, if the line repeats.
    public var repetition: ScenarioRepetition?
    /// What happens.
    public var action: ScenarioTimedAction
    /// The line's first token.
    public var location: SourceLocation
}

/// A repeating timed line: occurrences at `time + k·interval` for k = 1 … count (like `Timer.publish`,
/// the first fires one interval after the start).
public struct ScenarioRepetition: Hashable, Sendable {
    /// The interval.
    public var interval: TimeSpan
    /// How many times it fires.
    public var count: Int
}

/// A user or app action on the timeline.
public enum ScenarioTimedAction: Sendable {
    case user(ScenarioUserAction)
    case app(ScenarioAppAction)
}

/// `media NAME duration 6s:` with `narration at T "…"` and `caption at T [until T] "…"` lines.
public struct ScenarioMedia: Sendable {
    /// The media's name.
    public var name: String
    /// How long it plays.
    public var duration: TimeSpan
    /// What the media's audio says, with offsets from its start.
    public var narration: [ScenarioTimedText]
    /// The closed-caption track (empty: the asset has none).
    public var captions: [ScenarioTimedText]
    /// The `media` line.
    public var location: SourceLocation
}

/// A text at an offset into a media item.
public struct ScenarioTimedText: Hashable, Sendable {
    /// Offset from the media's start.
    public var offset: TimeSpan
    /// Until when it is shown (captions); `nil` = until the next one or the end.
    public var until: TimeSpan?
    /// The text.
    public var text: String
    /// Its line.
    public var location: SourceLocation
}

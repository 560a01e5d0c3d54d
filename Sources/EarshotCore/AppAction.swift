/// Where `screenChanged` or `layoutChanged` sends focus.
public enum NotificationTarget: Hashable, Sendable {
    /// `nil`: screenChanged focuses the first element; layoutChanged does nothing (V7).
    case none
    /// An element.
    case element(String)
    /// A string to speak.
    case text(TextTemplate)
}

/// A caption cue of a media track.
public struct CaptionCue: Hashable, Sendable {
    /// Start, relative to the track's start.
    public var start: TimeSpan
    /// End, relative to the track's start.
    public var end: TimeSpan
    /// The caption text.
    public var text: String

    /// Creates a cue.
    public init(start: TimeSpan, end: TimeSpan, text: String) {
        self.start = start
        self.end = end
        self.text = text
    }
}

/// A media track the app plays: its narration (spoken in the narrator voice when rendered) and its captions.
public struct MediaTrack: Hashable, Sendable {
    /// The track's name.
    public var name: String
    /// How long it plays.
    public var duration: TimeSpan
    /// What the track says, with offsets from its start.
    public var narration: [(offset: TimeSpan, text: String)]
    /// The closed-caption track, empty when the asset has none.
    public var captions: [CaptionCue]

    /// Creates a track.
    public init(name: String, duration: TimeSpan, narration: [(offset: TimeSpan, text: String)], captions: [CaptionCue])
    {
        self.name = name
        self.duration = duration
        self.narration = narration
        self.captions = captions
    }

    public static func == (lhs: MediaTrack, rhs: MediaTrack) -> Bool {
        lhs.name == rhs.name && lhs.duration == rhs.duration && lhs.captions == rhs.captions
            && lhs.narration.map(\.offset) == rhs.narration.map(\.offset)
            && lhs.narration.map(\.text) == rhs.narration.map(\.text)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(duration)
    }
}

/// Something the app does, in UIKit/SwiftUI terms. Actions nest: a debounce or a delay holds more actions.
public indirect enum AppAction: Hashable, Sendable {
    /// `UIAccessibility.post(notification: .announcement, argument:)` with priority and queue attribute.
    case announce(TextTemplate, priority: Priority, queued: Bool)
    /// `.screenChanged` with its argument (V5).
    case screenChanged(NotificationTarget)
    /// Replace the whole screen with another one from the script, then post `.screenChanged(nil)`.
    case showScreen(String)
    /// `.layoutChanged` with its argument (V6–V8).
    case layoutChanged(NotificationTarget)
    /// `.pageScrolled` with its string (V8).
    case pageScrolled(TextTemplate)
    /// Set an element's `accessibilityLabel`.
    case setLabel(String, TextTemplate)
    /// Set an element's `accessibilityValue`.
    case setValue(String, TextTemplate)
    /// Set an element's `accessibilityHint`.
    case setHint(String, TextTemplate)
    /// Hide or show an element's subtree.
    case setHidden(String, Bool)
    /// Add and remove traits.
    case setTraits(String, adding: Traits, removing: Traits)
    /// Set a switch's state.
    case setSwitch(String, SwitchState)
    /// Play an app sound (a success chime) of a given length.
    case playSound(String, duration: TimeSpan)
    /// Play a media track.
    case playMedia(MediaTrack)
    /// Show text on screen (a status line, a banner, a toast), optionally as an element's visible text; a toast
    /// goes after `duration` (nil: it stays).
    case showText(TextTemplate, duration: TimeSpan? = nil)
    /// The `.task(id:)` + sleep pattern: each run of this action cancels the pending one with the same key.
    case debounce(key: String, delay: TimeSpan, actions: [AppAction])
    /// Run actions after a delay (`DispatchQueue.main.asyncAfter`, a network load).
    case after(TimeSpan, [AppAction])
    /// Write a note on the timeline (shown in transcripts; checks do not read it).
    case note(String)
    /// A network load reaches a phase (recorded as a typed `TimelineEventKind.load`).
    case load(String, LoadPhase)
    /// Run actions every `period`, `count` times, the first after one period (a `Timer.publish`).
    case repeating(every: TimeSpan, count: Int, actions: [AppAction])
    /// A native speech-dispatcher event (heard only under the speech-dispatcher reader).
    case ssip(SSIPCommand)
}

/// What the user does (V4, V11; Switch Control's scan is driven by the profile, not by these).
public enum UserAction: Hashable, Sendable {
    /// One-finger swipe right.
    case swipeNext
    /// One-finger swipe left.
    case swipePrevious
    /// Touch an element (explore by touch).
    case focus(String)
    /// Double-tap the focused element, or the named one.
    case activate(String?)
    /// Type one character into the focused text field.
    case type(Character)
    /// Press Return (submit) in the focused element.
    case submit
    /// Swipe up (increment) or down (decrement) on the focused adjustable element.
    case adjust(AdjustDirection)
}

/// Which way a swipe adjusts a slider, picker or stepper (`accessibilityIncrement`/`Decrement`).
public enum AdjustDirection: String, Hashable, Sendable, CaseIterable {
    /// Swipe up: `accessibilityIncrement()`.
    case up
    /// Swipe down: `accessibilityDecrement()`.
    case down
}

/// What starts an app reaction.
public enum AppTrigger: Hashable, Sendable {
    /// A character was typed into the element.
    case typed(in: String)
    /// The element was activated.
    case activated(String)
    /// VoiceOver focus landed on the element.
    case focused(String)
    /// Return was pressed in the element (`.onSubmit`).
    case submitted(String)
    /// The element's value changed (`.onChange(of:)`), by typing, an adjust or the app's own `set`.
    case changed(String)
    /// The user swiped up or down on the adjustable element (`accessibilityIncrement`/`Decrement`).
    case adjusted(String, AdjustDirection)
}

/// App behavior: the actions that run when a trigger happens (`on type in query:` in a script).
public struct AppReaction: Hashable, Sendable {
    /// What starts it.
    public var trigger: AppTrigger
    /// What the app does.
    public var actions: [AppAction]

    /// Creates a reaction.
    public init(trigger: AppTrigger, actions: [AppAction]) {
        self.trigger = trigger
        self.actions = actions
    }
}

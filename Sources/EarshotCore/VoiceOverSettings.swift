/// Typing feedback: what VoiceOver echoes as the user types (V11).
public enum TypingFeedback: String, Hashable, Sendable, CaseIterable {
    case characters, words, charactersAndWords = "characters-and-words", none
}

/// Every tunable value of the VoiceOver profile. Each is [SET] or [OBS] in docs/speech-model.md; none is buried in
/// code.
public struct VoiceOverSettings: Hashable, Sendable {
    /// Pause between the end of a focus read and its hint (V12). [SET] 400 ms, TalkBack's `DELAY_HINT`.
    public var hintDelay: TimeSpan = .milliseconds(400)
    /// Whether hints are spoken at all (V12).
    public var hintsEnabled: Bool = true
    /// Verbosity: whether the role words of traits ("button", "heading", "tab" …) are spoken. [SET] on.
    public var traitWords: Bool = true
    /// Whether a control's own usage hint ("Double tap to edit.", "Swipe up or down with one finger to adjust the
    /// value.") follows the app's hint. [SRC] AccessibilitySnapshot adds them; [SET] on.
    public var traitHints: Bool = true
    /// How often a focused `updatesFrequently` element is polled (V10). [SET] 1 s.
    public var pollInterval: TimeSpan = .seconds(1)
    /// What typing echoes (V11). [SET] characters.
    public var typingFeedback: TypingFeedback = .characters
    /// V13: when on, an announcement arriving during a focus read is dropped instead of cutting it. [OBS]
    public var focusReadPreemptsAnnouncements: Bool = false
    /// Whether media is ducked while VoiceOver speaks. [SET] on.
    public var ducking: Bool = true
    /// Media volume while ducked, 0...1. [SET] 0.3.
    public var duckingLevel: Double = 0.3
    /// How long after a keystroke the app's text-change handler runs (the next run-loop turn). [SET] 10 ms,
    /// the gap in docs/speech-model.md's worked case 10.
    public var appReactionDelay: TimeSpan = .milliseconds(10)
    /// Length of the screen-change earcon. [OBS] a short two-tone, [SET] 250 ms.
    public var earconDuration: TimeSpan = .milliseconds(250)
    /// Whether a dropped queued announcement reports `announcementDidFinish(false)`. [OBS] no.
    public var notifyDroppedQueued: Bool = false

    /// The defaults above.
    public init() {}
}

/// Which assistive technology, if any, the simulated user runs.
public enum AssistiveTechnology: String, Hashable, Sendable, CaseIterable {
    case voiceOver = "voiceover"
    case switchControl = "switch-control"
    /// No screen reader: a sighted user (the sound-off and captions profiles).
    case none
}

/// Network speed for declared loading times (the Network Link Conditioner in the cards).
public enum NetworkCondition: String, Hashable, Sendable, CaseIterable {
    case wifi, lte, threeG = "3g", edge
}

/// A simulated user: the assistive technology, its settings, and device settings.
public struct UserProfile: Hashable, Sendable {
    /// The profile's name (`voiceover`, `switch-control`, `sound-off`, `captions`).
    public var name: String
    /// The assistive technology in use.
    public var technology: AssistiveTechnology
    /// VoiceOver's settings (also used for the speech of Switch Control).
    public var voiceOver: VoiceOverSettings
    /// Switch Control's auto-scan step. [SET] 1 s (iOS default auto-scanning time).
    public var scanStep: TimeSpan
    /// False when the device is muted: media and app sounds are not heard.
    public var soundOn: Bool
    /// Settings → Accessibility → Subtitles & Captioning → Closed Captions + SDH.
    public var closedCaptions: Bool
    /// The network the user is on.
    public var network: NetworkCondition
    /// Whose speech rules apply (VoiceOver unless a run asks for another reader).
    public var reader: ScreenReader = .voiceOver
    /// TalkBack's settings, used when `reader` is TalkBack.
    public var talkBack = TalkBackSettings()
    /// NVDA's settings, used when `reader` is NVDA.
    public var nvda = NVDASettings()

    /// Creates a profile.
    public init(
        name: String, technology: AssistiveTechnology, voiceOver: VoiceOverSettings = VoiceOverSettings(),
        scanStep: TimeSpan = .seconds(1), soundOn: Bool = true, closedCaptions: Bool = false,
        network: NetworkCondition = .wifi
    ) {
        self.name = name
        self.technology = technology
        self.voiceOver = voiceOver
        self.scanStep = scanStep
        self.soundOn = soundOn
        self.closedCaptions = closedCaptions
        self.network = network
    }

    /// VoiceOver with default settings.
    public static let voiceOver = UserProfile(name: "voiceover", technology: .voiceOver)
    /// Switch Control auto-scan with speech on.
    public static let switchControl = UserProfile(name: "switch-control", technology: .switchControl)
    /// A sighted user with the sound off.
    public static let soundOff = UserProfile(name: "sound-off", technology: .none, soundOn: false)
    /// A sighted user with Closed Captions + SDH on.
    public static let captions = UserProfile(name: "captions", technology: .none, closedCaptions: true)

    /// The built-in profiles by name.
    public static let builtIn: [UserProfile] = [.voiceOver, .switchControl, .soundOff, .captions]

    /// The built-in profile called `name`.
    public static func named(_ name: String) -> UserProfile? { builtIn.first { $0.name == name } }

    /// This profile with `reader`'s rules: the decisions and the settings the reader's sources give (TalkBack's
    /// 400 ms hint delay is VoiceOver's default already; NVDA speaks no delayed hint, it reads the description with
    /// the focus, so the hint follows at once).
    public func reading(with reader: ScreenReader) -> UserProfile {
        var copy = self
        copy.reader = reader
        if reader == .nvda { copy.voiceOver.hintDelay = .zero }
        return copy
    }
}

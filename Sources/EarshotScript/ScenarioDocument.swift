import EarshotCore

/// A parsed scenario script: header, screens, data, media, app reactions, the timeline and the checks.
///
/// Every node carries its `SourceLocation`. Element ids referenced anywhere have been checked against
/// the screens; times on the timeline are resolved to absolute instants.
public struct ScenarioDocument: Sendable {
    /// The path given to the parser.
    public var path: String
    /// Title, pattern, variant, profile and settings.
    public var header: ScenarioHeader
    /// The screens in declaration order; the first is on screen when the scenario starts.
    public var screens: [ScenarioScreen]
    /// Lookup tables for `{TABLE ID}` interpolations.
    public var dataTables: [ScenarioDataTable]
    /// Media with narration and an optional caption track.
    public var media: [ScenarioMedia]
    /// What the app does when the user types in, activates or focuses an element.
    public var reactions: [ScenarioReaction]
    /// Timed user and app events, sorted by time (ties keep source order).
    public var timeline: [ScenarioTimedEvent]
    /// The `check` blocks, in source order.
    public var checks: [ScenarioCheck]
    /// The latest instant the script mentions: its last timed line, `wait`, repetition or `duration`.
    /// The run should last at least until then (and until speech has settled).
    public var endTime: Instant

    /// Every element id declared on any screen, in declaration order (repeats expanded).
    public var elementIDs: [String] {
        screens.flatMap { $0.elements.flatMap(\.allIDs) }
    }

    /// The data table with a name, if declared.
    public func dataTable(named name: String) -> ScenarioDataTable? { dataTables.first { $0.name == name } }

    /// The media with a name, if declared.
    public func media(named name: String) -> ScenarioMedia? { media.first { $0.name == name } }
}

/// The script's header lines.
public struct ScenarioHeader: Sendable {
    /// `title "…"`: one line describing the scenario.
    public var title: String
    /// `pattern NAME`: the card's file name without extension, e.g. `announcement-spam` (or the script's own
    /// name after `pattern custom`); `nil` for a scenario that tests a rule rather than a card.
    public var pattern: String?
    /// `variant before|after`; `.standalone` when the script has no pattern and no variant.
    public var variant: ScenarioVariant
    /// `says-different "…"`: what should sound different between before and after, if given.
    public var saysDifferent: String?
    /// `profile …`: whose experience is simulated (default VoiceOver).
    public var profile: ScenarioProfileKind
    /// Profile settings given in the header; `nil` means the profile's documented default.
    public var settings: ScenarioSettings
    /// The `title` line's location.
    public var location: SourceLocation
}

extension ScenarioHeader {
    /// The names of the pattern cards (`pattern NAME`): the cards the findings point at.
    public static var knownPatterns: [String] { Array(Set(FindingRules.all.map(\.card))).sorted() }
}

/// Whether a script shows the bug or the fix.
public enum ScenarioVariant: String, Hashable, Sendable, CaseIterable {
    /// The card's Before code: its checks must fail.
    case before
    /// The card's Fix: its checks must pass.
    case after
    /// No `pattern`/`variant` lines: a scenario testing a rule; its checks must pass.
    case standalone
}

/// The user profile a scenario simulates (the Check blocks' `Profile:` line).
public enum ScenarioProfileKind: String, Hashable, Sendable, CaseIterable {
    /// VoiceOver (the default).
    case voiceover
    /// Switch Control auto-scan: each highlighted element is spoken.
    case switchControl = "switch-control"
    /// Sound off: no media or app sounds are heard; only visible text counts.
    case soundOff = "sound-off"
    /// Closed Captions + SDH on in system settings.
    case captions
}

/// What VoiceOver says when the user types (rule V11, docs/speech-model.md).
public enum ScenarioTypingFeedback: String, Hashable, Sendable, CaseIterable {
    case characters, words, both, none
}

/// Profile settings a header may give. Each `nil` leaves the engine's documented default.
public struct ScenarioSettings: Hashable, Sendable {
    /// `network wifi|3g|…`: selects the `on NETWORK` delay of every `load`.
    public var network: String?
    /// `voice NAME`: the listening voice profile (a `Voices/NAME.voice` file).
    public var voice: String?
    /// Where the `voice` line's name is, for errors about it.
    public var voiceLocation: SourceLocation?
    /// `hints on|off`.
    public var hints: Bool?
    /// `trait-words on|off`: verbosity of the role words ("button", "heading" …).
    public var traitWords: Bool?
    /// `trait-hints on|off`: the controls' own usage hints ("Double tap to edit.").
    public var traitHints: Bool?
    /// `typing-feedback characters|words|both|none`.
    public var typingFeedback: ScenarioTypingFeedback?
    /// `poll 1s`: the `updatesFrequently` poll interval (V10).
    public var pollInterval: TimeSpan?
    /// `hint-delay 400ms` (V12).
    public var hintDelay: TimeSpan?
    /// `focus-read-preempts-announcements on|off` (V13).
    public var focusReadPreemptsAnnouncements: Bool?
    /// `scan-step 1s`: Switch Control's auto-scan step time.
    public var scanStep: TimeSpan?
    /// `duration 60s`: run at least this long.
    public var duration: TimeSpan?

    /// No settings given.
    public init() {}
}

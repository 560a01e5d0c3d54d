/// How much punctuation the screen reader speaks (VoiceOver's Verbosity → Punctuation: All, Some, None).
public enum PunctuationLevel: String, Hashable, Sendable, CaseIterable {
    /// No symbol is named; sentence punctuation still pauses.
    case none
    /// Symbols that carry meaning (`#`, `@`, `&`, `/`, `+`, `=` …) are named; sentence punctuation, quotes and
    /// brackets only pause or are silent. VoiceOver's default.
    case some
    /// Every punctuation mark is named.
    case all
}

/// The choices the text normalizer makes that no source pins down: each one a setting of the voice profile,
/// documented with its source in `docs/speech-text.md`.
public struct SpeechTextSettings: Hashable, Sendable {
    /// The language whose rules and words are used (`SpeechLanguage.named`). [SET] `en-us`.
    public var language: String = "en-us"
    /// How much punctuation is named. [SET] `some`, VoiceOver's default level.
    public var punctuation: PunctuationLevel = .some
    /// Whether an all-caps word without a vowel (`CC`, `SMS`) is spelled letter by letter. [OBS] on.
    public var spellsAcronyms: Bool = true
    /// Whether zero cents are read ("12 dollars and 0 cents" instead of "12 dollars"). [OBS] off.
    public var readsZeroCents: Bool = false
    /// Whether `h:mm:ss` reads as a duration, the way a stopwatch or timer is read ("1 minute 7 seconds"),
    /// rather than as a time of day. [SET] on.
    public var readsClockDurations: Bool = true
    /// Whether `1/2/2026` means month/day/year (US) or day/month/year. [SET] month first for en-us.
    public var monthFirstDates: Bool = true

    /// The defaults above.
    public init() {}

    /// Settings that leave text as posted apart from what the language always rewrites; for comparisons.
    public static let standard = SpeechTextSettings()
}

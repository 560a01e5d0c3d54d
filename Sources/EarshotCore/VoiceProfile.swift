/// A listening voice: which espeak-ng voice speaks, how fast and how high.
///
/// Profiles live in `Voices/*.voice` (format documented in `Voices/README.md`); `EarshotScript` parses
/// them and `EarshotSystem` checks them against the installed espeak-ng data.
public struct VoiceProfile: Hashable, Sendable {
    /// The profile's name, the file name without `.voice` (for example `default`, `expert`).
    public var name: String
    /// The espeak-ng voice name, for example `en-us`.
    public var espeakVoice: String
    /// An espeak-ng variant (`f3`, `klatt`, or a custom file under `Voices/variants/`), if any.
    public var variant: String?
    /// Speaking rate in words per minute, 80...449.
    public var rate: Int
    /// Base pitch, 0...100 (espeak's scale; 50 is the voice's normal).
    public var pitch: Int
    /// Volume, 0...200 (espeak's scale; 100 is normal).
    public var volume: Int
    /// Extra pause between words, in units of 10 ms at the normal rate.
    public var wordGap: Int
    /// One line for `earshot voices`.
    public var description: String
    /// How posted text becomes the words spoken: punctuation level and the normalizer's other choices.
    public var text: SpeechTextSettings

    /// The lowest rate a profile may ask for (espeak-ng clamps below it).
    public static let minimumRate = 80
    /// The highest rate with exact word positions (espeak-ng's sonic path drifts from 450 wpm).
    public static let maximumRate = 449

    /// Creates a profile.
    public init(
        name: String, espeakVoice: String, variant: String? = nil, rate: Int = 180, pitch: Int = 50,
        volume: Int = 100, wordGap: Int = 0, description: String = "", text: SpeechTextSettings = SpeechTextSettings()
    ) {
        self.name = name
        self.espeakVoice = espeakVoice
        self.variant = variant
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
        self.wordGap = wordGap
        self.description = description
        self.text = text
    }

    /// The listening voice used when a script or command names none: en-us at 185 wpm.
    public static let standard = VoiceProfile(
        name: "default", espeakVoice: "en-us", rate: 185, description: "Default listening voice")
}

import EarshotCore

/// One sound placed on the output: speech, an effect (earcon, tick, app sound) or media.
///
/// Its samples are produced lazily, when the mixer reaches `start`, and released once it has passed
/// `start + length`, so a long render holds only the clips sounding now. The mixer uses exactly `length`
/// frames: fewer samples are padded with silence, more are cut off.
public struct MixClip {
    /// What kind of sound a clip is; media is ducked under speech.
    public enum Role: Hashable, Sendable {
        /// VoiceOver speech (and spoken labels): it ducks media.
        case speech
        /// An earcon, tick or app sound.
        case effect
        /// Media audio: ducked to `duckingLevel` while speech sounds (nil: never ducked).
        case media(duckingLevel: Double?)
    }

    /// The first output frame.
    public var start: Int
    /// How many output frames it covers.
    public var length: Int
    /// Its kind.
    public var role: Role
    /// A linear gain applied to its samples.
    public var gain: Double
    /// Produces the samples when needed.
    public var samples: () throws -> [Int16]

    /// Creates a clip.
    public init(start: Int, length: Int, role: Role, gain: Double = 1, samples: @escaping () throws -> [Int16]) {
        self.start = start
        self.length = length
        self.role = role
        self.gain = gain
        self.samples = samples
    }

    /// The frame after its last.
    public var end: Int { start + length }
}

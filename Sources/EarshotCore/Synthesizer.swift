/// One word's place in synthesized audio.
public struct WordBoundary: Hashable, Sendable {
    /// The frame (sample index within the utterance) where the word starts.
    public var frame: Int
    /// The word's range in the utterance text, in Unicode scalar offsets (0-based, half-open).
    public var textRange: Range<Int>

    /// Creates a boundary.
    public init(frame: Int, textRange: Range<Int>) {
        self.frame = frame
        self.textRange = textRange
    }
}

/// The audio of one utterance, with where each word starts.
public struct SynthesizedSpeech: Sendable {
    /// Mono 16-bit PCM frames.
    public var samples: [Int16]
    /// Frames per second.
    public var sampleRate: Int
    /// Words in frame order (monotonic).
    public var words: [WordBoundary]
    /// True when synthesis was stopped early at the frame limit asked for.
    public var stoppedEarly: Bool

    /// Creates synthesized speech.
    public init(samples: [Int16], sampleRate: Int, words: [WordBoundary], stoppedEarly: Bool = false) {
        self.samples = samples
        self.sampleRate = sampleRate
        self.words = words
        self.stoppedEarly = stoppedEarly
    }

    /// The number of frames.
    public var frameCount: Int { samples.count }

    /// How long the audio lasts.
    public var duration: TimeSpan { TimeSpan.frames(samples.count, rate: sampleRate) }
}

/// Something that turns text into speech: espeak-ng in the product, a recording fake in queue tests.
///
/// Implementations must be safe to call from any thread; espeak-ng's serializes every call on one owner.
public protocol Synthesizer: Sendable {
    /// Frames per second of everything this synthesizer produces.
    var sampleRate: Int { get }

    /// Speaks `text` literally (no markup) with `voice`, stopping after `frameLimit` frames when given.
    ///
    /// With a limit, the result holds exactly `min(limit, full length)` frames and `stoppedEarly` says
    /// whether synthesis was cut short.
    func synthesize(_ text: String, voice: VoiceProfile, frameLimit: Int?) throws -> SynthesizedSpeech
}

extension Synthesizer {
    /// Speaks `text` in full.
    public func synthesize(_ text: String, voice: VoiceProfile) throws -> SynthesizedSpeech {
        try synthesize(text, voice: voice, frameLimit: nil)
    }
}

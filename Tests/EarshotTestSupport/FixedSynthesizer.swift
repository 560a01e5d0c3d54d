import EarshotCore

/// Speech that lasts 40 ms per character at 8 kHz, with a word boundary after each space: for running arbitrary
/// scripts quickly (the regression corpus, limits, the fuzzer). Real espeak-ng timing is tested elsewhere.
///
/// tools/fuzz/build.sh compiles this file into the fuzzer too, so it imports EarshotCore alone.
public struct FixedSynthesizer: Synthesizer {
    /// 8 kHz: little audio to allocate.
    public let sampleRate = 8000

    /// Creates the synthesizer.
    public init() {}

    /// Speech of the fixed length for `text`, cut at `frameLimit`, a word boundary after each space.
    public func synthesize(_ text: String, voice: VoiceProfile, frameLimit: Int?) throws -> SynthesizedSpeech {
        let scalars = Array(text.unicodeScalars) + [" "]
        let perScalar = sampleRate / 25
        var words: [WordBoundary] = []
        var start: Int?
        for (index, scalar) in scalars.enumerated() {
            if scalar.properties.isWhitespace {
                if let first = start { words.append(WordBoundary(frame: first * perScalar, textRange: first..<index)) }
                start = nil
            } else if start == nil {
                start = index
            }
        }
        let full = scalars.count * perScalar
        let count = min(frameLimit ?? full, full)
        return SynthesizedSpeech(
            samples: Array(repeating: 0, count: count), sampleRate: sampleRate, words: words,
            stoppedEarly: count < full)
    }
}

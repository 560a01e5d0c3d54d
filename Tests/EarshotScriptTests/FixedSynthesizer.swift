import EarshotCore
import EarshotScript

/// Speech that lasts 40 ms per character at 8 kHz: for running arbitrary scripts quickly (the regression
/// corpus, limits). Real espeak-ng timing is tested in EarshotSystemTests.
struct FixedSynthesizer: Synthesizer {
    let sampleRate = 8000

    func synthesize(_ text: String, voice: VoiceProfile, frameLimit: Int?) throws -> SynthesizedSpeech {
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

    /// Parses, runs and checks a script's bytes the way `earshot check` does.
    static func check(_ bytes: [UInt8], path: String) throws -> [CheckResult] {
        let document = try ScenarioParser.parse(bytes: bytes, path: path)
        let profile = try ScenarioRunner.profile(for: document)
        let speech = SpeechLibrary(synthesizer: FixedSynthesizer(), audioCacheLimit: 0)
        let run = try ScenarioRunner.run(document, profile: profile, voice: .standard, speech: speech)
        _ = FindingRules.findings(in: run.timeline)
        _ = run.timeline.transcript()
        return CheckEvaluator(run: run).evaluate()
    }
}

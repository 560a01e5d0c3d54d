// What one fuzz input goes through: the same steps `earshot check` takes, with a synthesizer whose
// durations are fixed so that every input runs in milliseconds. Built by tools/fuzz/build.sh into one
// module with EarshotCore and EarshotScript (libFuzzer and AddressSanitizer instrument all of it).
import Foundation

/// Speech that lasts 40 ms per character at 8 kHz, with a word boundary after each space.
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
}

enum FuzzHarness {
    /// Parses, runs and checks a script; a located error is a fine outcome, a crash is the finding.
    static func script(_ bytes: [UInt8]) {
        let document: ScenarioDocument
        do {
            document = try ScenarioParser.parse(bytes: bytes, path: "fuzz.earshot")
        } catch {
            precondition(!error.diagnostics.isEmpty, "a rejected script must say why")
            _ = error.description
            return
        }
        let profile = (try? ScenarioRunner.profile(for: document)) ?? .voiceOver
        let speech = SpeechLibrary(synthesizer: FixedSynthesizer(), audioCacheLimit: 0)
        guard let run = try? ScenarioRunner.run(document, profile: profile, voice: .standard, speech: speech) else {
            return
        }
        _ = CheckEvaluator(run: run).evaluate()
        _ = FindingRules.findings(in: run.timeline)
        _ = run.timeline.transcript()
        _ = run.timeline.jsonLines()
    }

    /// Parses a voice file.
    static func voice(_ bytes: [UInt8]) {
        do {
            _ = try VoiceFile.parse(bytes: bytes, name: "fuzz", path: "fuzz.voice")
        } catch {
            _ = error.description
        }
    }
}

import EarshotCore
import EarshotSystem
import Foundation

/// Shared fixtures for the tests that run real espeak-ng.
enum SpeechFixtures {
    /// The package's Voices folder, found from this file's path.
    static let voicesDirectory: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Voices").path

    /// The process's synthesizer, with the package's custom variants.
    static func synthesizer() throws -> EspeakSynthesizer {
        try EspeakSynthesizer.shared(voicesDirectory: voicesDirectory)
    }

    /// Twenty words, as in the rate table measured on espeak-ng 1.51.
    static let twentyWords =
        "The quick brown fox jumps over the lazy dog while seven happy children watch quietly beside one wooden bridge nearby."

    /// A profile like the default one at another rate.
    static func voice(rate: Int, variant: String? = nil, espeak: String = "en-us") -> VoiceProfile {
        VoiceProfile(name: "test-\(rate)", espeakVoice: espeak, variant: variant, rate: rate)
    }
}

extension SynthesizedSpeech {
    /// Root mean square amplitude over all frames (0 for no audio).
    var rms: Double {
        guard !samples.isEmpty else { return 0 }
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(samples.count)).squareRoot()
    }

    /// The words' text, in frame order.
    func spokenWords(of text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        return words.map { boundary in
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[boundary.textRange])
            return String(view)
        }
    }

    /// Zero crossings per second of voiced audio: a rough brightness/pitch measure.
    var zeroCrossingRate: Double {
        var crossings = 0
        for index in samples.indices.dropFirst() where (samples[index - 1] < 0) != (samples[index] < 0) {
            crossings += 1
        }
        return Double(crossings) / max(duration.seconds, 1e-9)
    }
}

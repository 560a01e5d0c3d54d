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

/// Two phrases in flight at once, each in its own slot: the first waits inside its chunk handler (still holding its
/// slot) until the second's handler has run. Waiting on that event, not on the thread pool's luck (which on a busy
/// two-core machine may run every call on one thread), makes the overlap certain when slots work, and a timeout
/// when they queue.
enum PhrasesInFlight {
    /// What each handler saw (`observe`, called on the phrase's calling thread while its phrase is in flight) and the
    /// problems met (a timeout, an error), for `first` and `second` synthesized with `streaming`.
    static func observe<Seen>(
        _ first: String, _ second: String, streaming: Bool, with synthesizer: EspeakSynthesizer,
        _ observe: @escaping @Sendable () -> Seen
    ) throws -> (first: Seen?, second: Seen?, problems: [String]) {
        let firstIsIn = DispatchSemaphore(value: 0)
        let secondSpoke = DispatchSemaphore(value: 0)
        let firstDone = DispatchSemaphore(value: 0)
        let seenFirst = Box<Seen>()
        let thread = Thread {
            do {
                try synthesizer.synthesize(first, voice: .standard, frameLimit: nil, streaming: streaming) { _, _ in
                    if seenFirst.value == nil {
                        seenFirst.value = observe()
                        firstIsIn.signal()
                        if secondSpoke.wait(timeout: .now() + 60) == .timedOut {
                            seenFirst.note("the second phrase never began")
                        }
                    }
                    return true
                }
            } catch {
                seenFirst.note("first: \(error)")
            }
            firstDone.signal()
        }
        thread.start()
        var problems: [String] = []
        if firstIsIn.wait(timeout: .now() + 60) == .timedOut { problems.append("the first phrase never began") }
        var seenSecond: Seen?
        try synthesizer.synthesize(second, voice: .standard, frameLimit: nil, streaming: streaming) { _, _ in
            if seenSecond == nil {
                seenSecond = observe()
                secondSpoke.signal()
            }
            return true
        }
        if firstDone.wait(timeout: .now() + 60) == .timedOut { problems.append("the first phrase never ended") }
        return (seenFirst.value, seenSecond, problems + seenFirst.problems)
    }

    /// A value and problems written on another thread.
    private final class Box<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Value?
        private var notes: [String] = []

        var value: Value? {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }

        func note(_ problem: String) { lock.withLock { notes.append(problem) } }

        var problems: [String] { lock.withLock { notes } }
    }
}

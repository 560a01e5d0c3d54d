import EarshotCore
import Foundation

/// A synthesizer for queue tests: every character lasts `msPerCharacter`, words start where their first
/// character would be spoken, and every request is recorded. Real espeak-ng timing is tested elsewhere.
final class RecordingSynthesizer: Synthesizer, @unchecked Sendable {
    let sampleRate = 22050
    let msPerCharacter: Int
    private let lock = NSLock()
    private var spoken: [String] = []

    init(msPerCharacter: Int = 50) { self.msPerCharacter = msPerCharacter }

    var requests: [String] { lock.withLock { spoken } }

    func synthesize(_ text: String, voice: VoiceProfile, frameLimit: Int?) throws -> SynthesizedSpeech {
        lock.withLock { spoken.append(text) }
        let scalars = Array(text.unicodeScalars)
        let framesPerCharacter = sampleRate * msPerCharacter / 1000
        var words: [WordBoundary] = []
        var index = 0
        while index < scalars.count {
            if scalars[index].properties.isWhitespace || scalars[index] == "," || scalars[index] == "." {
                index += 1
                continue
            }
            let start = index
            while index < scalars.count,
                !(scalars[index].properties.isWhitespace || scalars[index] == ","
                    || scalars[index] == ".")
            {
                index += 1
            }
            words.append(WordBoundary(frame: start * framesPerCharacter, textRange: start..<index))
        }
        let full = max(1, scalars.count) * framesPerCharacter
        let count = min(frameLimit ?? full, full)
        return SynthesizedSpeech(
            samples: Array(repeating: 1000, count: count), sampleRate: sampleRate, words: words,
            stoppedEarly: count < full)
    }
}

/// A small harness: one screen, a simulation, time advanced by hand.
struct Bench {
    let synthesizer: RecordingSynthesizer
    let simulation: Simulation

    init(
        elements: [AccessibilityElement] = Bench.searchScreen, profile: UserProfile = .voiceOver,
        msPerCharacter: Int = 50, reactions: [AppReaction] = [], tables: [String: [String: String]] = [:],
        extraScreens: [Screen] = []
    ) {
        synthesizer = RecordingSynthesizer(msPerCharacter: msPerCharacter)
        simulation = Simulation(
            screens: [Screen(name: "main", elements: elements)] + extraScreens, profile: profile,
            speech: SpeechLibrary(synthesizer: synthesizer), tables: tables, reactions: reactions)
    }

    static let searchScreen: [AccessibilityElement] = [
        AccessibilityElement(id: "query", label: "Search products", traits: .searchField),
        AccessibilityElement(id: "results", label: "", traits: .staticText),
        AccessibilityElement(id: "cart", label: "Cart", value: "0 items", traits: .button, hint: "Opens your cart"),
    ]

    func post(_ actions: AppAction...) { simulation.run(actions, origin: simulation.now) }
    func user(_ action: UserAction) { simulation.perform(action) }
    func advance(ms: Int64) throws { try simulation.advance(by: .milliseconds(ms)) }
    var records: [UtteranceRecord] { simulation.timeline.utterances }
    func record(_ text: String) -> UtteranceRecord? { records.first { $0.utterance.text == text } }
    var didFinish: [(String, Bool)] {
        simulation.timeline.events.compactMap { event in
            if case .announcementDidFinish(_, let text, let success) = event.kind { return (text, success) }
            return nil
        }
    }
}

extension AppAction {
    static func say(_ text: String, _ priority: Priority = .default, queued: Bool = false) -> AppAction {
        .announce(.literal(text), priority: priority, queued: queued)
    }
}

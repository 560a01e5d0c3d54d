import EarshotTesting
import Testing

/// The same inputs give the same timeline. espeak-ng repeated inside one process drifts by about 0.3 % in length
/// (measured on espeak-ng 1.51), so two runs with fresh synthesis are compared with a time tolerance; two runs sharing one
/// speech library get the very same durations and must match exactly.
@Suite struct DeterminismTests {
    /// Everything a run decides, except exact times: text, kind, outcome kind and who cut.
    struct Shape: Equatable {
        var text: String
        var kind: UtteranceKind
        var outcome: String
        var cutBy: String?
        init(_ utterance: SpokenUtterance) {
            text = utterance.text
            kind = utterance.kind
            switch utterance.outcome {
            case .queued: outcome = "queued"
            case .speaking: outcome = "speaking"
            case .spoken: outcome = "spoken"
            case .interrupted: outcome = "interrupted"
            case .dropped(let reason): outcome = "dropped: \(reason.rawValue)"
            }
            cutBy = utterance.cutBy
        }
    }

    /// A scenario touching most of the engine: focus reads, hints, typing, a debounce, queued and high
    /// announcements, a layout change.
    static func scenario(speech: SpeechLibrary? = nil) throws -> ScreenReaderSession {
        let screen = TestingFixtures.searchScreen(debounce: .milliseconds(600))
        let session =
            if let speech {
                ScreenReaderSession(screen: screen, speech: speech)
            } else {
                ScreenReaderSession(screen: screen, synthesizer: try TestingFixtures.synthesizer())
            }
        try session.focus("query")
        try session.advance(by: .seconds(2))
        try session.type("jasmine", every: .milliseconds(150))
        try session.advance(by: .seconds(2))
        try session.swipeNext()
        try session.swipeNext()
        try session.advance(by: .seconds(3))
        try session.post(.announcement("Added to cart. 3 items."), .value(of: "cart", to: "3 items"))
        try session.advance(by: .milliseconds(300))
        try session.post(.announcement("Sync complete", priority: .low))
        try session.post(.announcement("Payment failed", priority: .high))
        try session.advance(by: .milliseconds(200))
        try session.post(.layoutChanged(focusing: "cart"))
        try session.advance(by: .seconds(5))
        try session.finish()
        return session
    }

    @Test func theSameScenarioTwiceGivesTheSameTimelineWithinEspeakDrift() throws {
        let first = try Self.scenario()
        let second = try Self.scenario()
        #expect(first.utterances.map(Shape.init) == second.utterances.map(Shape.init))
        #expect(first.spokenPhraseLog == second.spokenPhraseLog)
        #expect(first.utterances.count >= 15)
        #expect(first.keystrokes == second.keystrokes)
        for (a, b) in zip(first.utterances, second.utterances) {
            // Hints and queued speech are requested when earlier speech ends, so their times drift too.
            for (x, y) in [(a.requestedAt, b.requestedAt), (a.start, b.start), (a.end, b.end)] {
                #expect((x == nil) == (y == nil))
                if let x, let y {
                    #expect(Self.close(x, y, within: 0.03, plus: .milliseconds(150)), "\(a) vs \(b)")
                }
            }
            if let x = a.duration, let y = b.duration {
                #expect(Self.close(x, y, within: 0.06, plus: .milliseconds(50)), "\(a) vs \(b)")
            }
        }
    }

    /// True when `x` and `y` differ by at most `fraction` of the larger plus `slack`.
    ///
    /// Measured here: a phrase's length depends on what espeak-ng synthesized just before it ("e" is 0.220 s or
    /// 0.267 s; a 1.8 s read varied from 1.767 s to 1.865 s), so with other tests synthesizing in parallel the same
    /// phrase differs by up to ~100 ms between runs (about 0.3 % for plain repeats, measured on espeak-ng 1.51), and a chain of
    /// queued phrases adds the differences up.
    static func close(_ x: Duration, _ y: Duration, within fraction: Double, plus slack: Duration) -> Bool {
        max(x - y, y - x) <= max(x, y) * fraction + slack
    }

    @Test func theSameScenarioTwiceWithOneSpeechLibraryGivesAnIdenticalTranscript() throws {
        let speech = SpeechLibrary(synthesizer: try TestingFixtures.synthesizer(), audioCacheLimit: 0)
        let first = try Self.scenario(speech: speech)
        let callsAfterFirst = speech.statistics.synthesisCalls
        let second = try Self.scenario(speech: speech)
        #expect(first.transcript == second.transcript)
        #expect(first.jsonLines == second.jsonLines)
        #expect(first.utterances == second.utterances)
        #expect(speech.statistics.synthesisCalls == callsAfterFirst)
    }
}

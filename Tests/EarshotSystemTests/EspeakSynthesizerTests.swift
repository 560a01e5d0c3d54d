import EarshotCore
import EarshotSystem
import Testing

/// Real espeak-ng audio: loudness, length, word positions, cuts and literal text.
@Suite struct EspeakSynthesizerTests {
    @Test func speechIsNotSilent() throws {
        let speech = try SpeechFixtures.synthesizer().synthesize("Hello, world.", voice: .standard)
        #expect(speech.sampleRate == 22050)
        #expect(speech.duration.seconds > 0.5)
        #expect(speech.rms > 500, "RMS \(speech.rms) is below the silence floor")
    }

    /// Measured on espeak-ng 1.51: a 20-word sentence lasts 13.16 s at 80 wpm, 6.38 s at 175, 3.32 s at 350.
    @Test(arguments: [(80, 13.16), (175, 6.38), (350, 3.32)])
    func lengthScalesWithRate(rate: Int, expectedSeconds: Double) throws {
        let speech = try SpeechFixtures.synthesizer().synthesize(
            SpeechFixtures.twentyWords, voice: SpeechFixtures.voice(rate: rate))
        let seconds = speech.duration.seconds
        #expect(seconds > expectedSeconds * 0.75 && seconds < expectedSeconds * 1.25, "\(rate) wpm lasted \(seconds) s")
        #expect(speech.words.count == 20)
    }

    @Test func wordBoundariesAreMonotonicAndNameTheRightWords() throws {
        let text = SpeechFixtures.twentyWords
        let speech = try SpeechFixtures.synthesizer().synthesize(text, voice: .standard)
        let expected = text.split(separator: " ").map { String($0.filter { $0.isLetter }) }
        #expect(speech.spokenWords(of: text) == expected)
        #expect(zip(speech.words, speech.words.dropFirst()).allSatisfy { $0.frame < $1.frame })
        #expect(speech.words.first?.frame ?? -1 >= 0)
        #expect(speech.words.last.map { $0.frame < speech.frameCount } == true)
    }

    @Test func wordBoundariesCountUnicodeScalars() throws {
        let text = "Café naïve 🎉 résumé"
        let speech = try SpeechFixtures.synthesizer().synthesize(text, voice: .standard)
        let spoken = speech.spokenWords(of: text)
        let named = spoken.filter { ["Café", "naïve", "résumé"].contains($0) }
        #expect(named == ["Café", "naïve", "résumé"], "heard \(spoken)")
        #expect(speech.words.allSatisfy { $0.textRange.upperBound <= text.unicodeScalars.count })
        #expect(zip(speech.words, speech.words.dropFirst()).allSatisfy { $0.frame <= $1.frame })
    }

    @Test(arguments: [1, 1_000, 11_025, 30_000])
    func frameLimitYieldsExactlyThatManyFrames(limit: Int) throws {
        let speech = try SpeechFixtures.synthesizer().synthesize(
            SpeechFixtures.twentyWords, voice: .standard, frameLimit: limit)
        #expect(speech.frameCount == limit)
        #expect(speech.stoppedEarly)
        #expect(speech.words.allSatisfy { $0.frame < limit })
    }

    @Test func frameLimitBeyondTheEndKeepsEverything() throws {
        let synthesizer = try SpeechFixtures.synthesizer()
        let full = try synthesizer.synthesize("Short text.", voice: .standard)
        let limited = try synthesizer.synthesize("Short text.", voice: .standard, frameLimit: full.frameCount + 5_000)
        #expect(!limited.stoppedEarly)
        // Not padded to the limit, and the whole phrase, frame for frame.
        let same = limited.samples == full.samples
        #expect(same, "\(full.frameCount) frames in full, \(limited.frameCount) with a limit beyond the end")
        #expect(limited.words.count == 2)
    }

    @Test func chunkHandlerCanStopSynthesisMidUtterance() throws {
        let synthesizer = try SpeechFixtures.synthesizer()
        var received = 0
        let stopped = try synthesizer.synthesize(SpeechFixtures.twentyWords, voice: .standard, frameLimit: nil) {
            chunk, _ in
            received += chunk.count
            return false
        }
        #expect(stopped)
        #expect(received > 0 && received < 22050, "received \(received) frames after asking to stop")
        // The next utterance is whole again.
        let next = try synthesizer.synthesize("Hello.", voice: .standard)
        #expect(!next.stoppedEarly && next.words.count == 1)
    }

    /// With SSML a stray `<` would swallow the rest ("if a<b then" → "if a"); spoken literally it must not.
    @Test(arguments: [
        ("if a<b then c", "if a b then c", "c"),
        ("Tom & Jerry say \"hi\" to 'Bob'", "Tom and Jerry say hi to Bob", "Bob"),
        ("<b>bold</b> and 🎉 party", "b bold b and party popper party", "party"),
    ])
    func markupCharactersAreSpokenLiterally(text: String, plain: String, lastWord: String) throws {
        let synthesizer = try SpeechFixtures.synthesizer()
        let speech = try synthesizer.synthesize(text, voice: .standard)
        let reference = try synthesizer.synthesize(plain, voice: .standard)
        #expect(speech.spokenWords(of: text).last == lastWord, "heard \(speech.spokenWords(of: text))")
        #expect(speech.words.count >= plain.split(separator: " ").count - 2)
        #expect(speech.duration.seconds > reference.duration.seconds * 0.7, "\(text) was cut short")
    }

    @Test func emptyTextGivesNoWords() throws {
        let speech = try SpeechFixtures.synthesizer().synthesize("", voice: .standard)
        #expect(speech.words.isEmpty)
        #expect(speech.duration.seconds < 0.5)
    }
}

import EarshotCore
import EarshotSystem
import Testing

/// Heard words come from the audio: a word counts from where its sound starts, not from espeak-ng's mark a
/// few milliseconds earlier, and every field holds a whole written word.
@Suite struct WordAlignmentTests {
    /// Root mean square of `samples[range]`.
    static func rms(_ samples: [Int16], _ range: Range<Int>) -> Double {
        let slice = samples[range.clamped(to: 0..<samples.count)]
        guard !slice.isEmpty else { return 0 }
        return (slice.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(slice.count)).squareRoot()
    }

    /// The loudest 5 ms window.
    static func peak(_ samples: [Int16]) -> Double {
        stride(from: 0, to: samples.count, by: 110).map { rms(samples, $0..<($0 + 110)) }.max() ?? 0
    }

    @Test func eachWordIsLoudWhereItIsSaidToStart() throws {
        let text = "Added to cart, 2 items. Order 1042 is ready at 11:59."
        let speech = try SpeechFixtures.synthesizer().synthesize(text, voice: .standard)
        let timing = SpeechTiming(text: text, speech: speech)
        let loud = Self.peak(speech.samples) / 32
        #expect(timing.words.count == 11)
        for (index, word) in timing.words.enumerated() {
            let start = Self.rms(speech.samples, word.frame..<(word.frame + 220))
            #expect(start >= loud, "\(timing.word(index)) starts quiet: RMS \(start) < \(loud)")
        }
    }

    /// "to" is marked about 30 ms before its "t" sounds: a cut between the two hears only "Added".
    @Test func aCutBeforeAWordSoundsDoesNotHearIt() throws {
        let text = "Added to cart"
        let speech = try SpeechFixtures.synthesizer().synthesize(text, voice: .standard)
        let aligned = SpeechTiming(text: text, speech: speech)
        let marked = SpeechTiming(
            text: text, frameCount: speech.frameCount, sampleRate: speech.sampleRate, words: speech.words)
        let markOfTo = try #require(speech.words.first { $0.textRange.lowerBound == 6 }).frame
        let soundOfTo = try #require(aligned.words.first { $0.textRange == 6..<8 }).frame
        #expect(soundOfTo > markOfTo + 22, "\"to\" marked at \(markOfTo), sounds at \(soundOfTo)")
        // The last 5 ms before the cut are quiet: nothing of "to" is in the audio yet.
        let cut = soundOfTo - 1
        #expect(Self.rms(speech.samples, (cut - 110)..<cut) < Self.peak(speech.samples) / 32)
        #expect(aligned.cut(afterFrames: cut).heardText == "Added")
        #expect(aligned.cut(afterFrames: cut).cutWord == "Added")
        // espeak-ng's marks alone would report "to" as heard.
        #expect(marked.cut(afterFrames: cut).heardText == "Added to")
        // Once its sound started, "to" is heard.
        #expect(aligned.cut(afterFrames: soundOfTo + 440).heardText == "Added to")
    }

    @Test func fieldsHoldWholeWrittenWordsNotEspeakFragments() throws {
        let text = "Order 1042 is ready at 11:59."
        let speech = try SpeechFixtures.synthesizer().synthesize(text, voice: .standard)
        let timing = SpeechTiming(text: text, speech: speech)
        #expect(timing.words.indices.map(timing.word) == ["Order", "1042", "is", "ready", "at", "11:59"])
        // espeak-ng marks "1042" four times and "11:59" three times.
        let marksIn1042 = speech.words.filter { (5..<10).contains($0.textRange.lowerBound) }
        let marksIn1159 = speech.words.filter { $0.textRange.lowerBound >= 23 }
        #expect(marksIn1042.count > 1 && marksIn1159.count > 1)
        for mark in marksIn1042.dropFirst() {
            let cut = timing.cut(afterFrames: mark.frame + 220)
            #expect(cut.cutWord == "1042")
            #expect(cut.lostWords == ["1042", "is", "ready", "at", "11:59"])
            #expect(cut.heardText == "Order 1042")
        }
        for mark in marksIn1159.dropFirst() {
            let cut = timing.cut(afterFrames: mark.frame + 220)
            #expect(cut.cutWord == "11:59" && cut.lastFullWord == "at")
        }
    }

    @Test func punctuationAroundAWordIsNotPartOfIt() throws {
        let text = "Pay now, button"
        let timing = SpeechTiming(
            text: text, speech: try SpeechFixtures.synthesizer().synthesize(text, voice: .standard))
        #expect(timing.words.indices.map(timing.word) == ["Pay", "now", "button"])
    }

    /// espeak-ng gives "a while" no mark of its own (its last marks point into "for"), so only seven of the
    /// nine words get a start; a cut early in the phrase still loses every written word after it.
    @Test func wordsWithoutAMarkOfTheirOwnAreStillLostAfterACut() throws {
        let text = "The first message keeps on speaking for a while"
        let speech = try SpeechFixtures.synthesizer().synthesize(text, voice: .standard)
        let timing = SpeechTiming(text: text, speech: speech)
        let message = try #require(timing.words.firstIndex { $0.textRange == 10..<17 })
        let cut = timing.cut(afterFrames: timing.words[message].frame + 1)
        #expect(cut.cutWord == "message")
        #expect(cut.lostWords == ["message", "keeps", "on", "speaking", "for", "a", "while"])
        // The marks alone would have lost fewer words: the failing side of the rule above.
        #expect(timing.words.count < 9, "espeak-ng now marks every word; this test's premise changed")
        #expect(timing.cut(afterFrames: 0).lostWords.count == 9)
    }
}

import EarshotCore
import Foundation
import Testing

/// The one path text takes to the synthesizer: normalization, then pronunciations, with heard words in posted text.
@Suite struct SpeechTextTests {
    @Test func theSynthesizerIsGivenTheNormalizedTextAndCutsLandInThePostedText() throws {
        let synthesizer = RecordingSynthesizer()
        let library = SpeechLibrary(synthesizer: synthesizer)
        let timing = try library.timing(for: "Pay $12.00 now", voice: .standard)
        #expect(synthesizer.requests == ["Pay 12 dollars now"])
        #expect(timing.text == "Pay $12.00 now")
        #expect(timing.spokenText == "Pay 12 dollars now")
        #expect(timing.words.indices.map(timing.word) == ["Pay", "$12.00", "now"])
        // 50 ms a character: "dollars" starts at character 7 (350 ms); a cut there lands in "$12.00".
        let cut = timing.cut(afterFrames: 22050 * 400 / 1000)
        #expect(cut.cutWord == "$12.00")
        #expect(cut.heardText == "Pay $12.00")
        #expect(cut.lastFullWord == "Pay")
    }

    @Test func textThatNeedsNoRewriteReachesTheSynthesizerUnchanged() throws {
        let synthesizer = RecordingSynthesizer()
        let timing = try SpeechLibrary(synthesizer: synthesizer).timing(for: "Results updated", voice: .standard)
        #expect(synthesizer.requests == ["Results updated"])
        #expect(timing.spokenText == timing.text)
    }

    @Test func pronunciationsApplyAfterNormalizationAndMapBackToThePostedText() throws {
        let dictionary = PronunciationDictionary(entries: [
            .init(match: .word("Earshot"), replacement: "ear shot", line: 1),
            .init(
                match: .pattern(try NSRegularExpression(pattern: "SKU (\\d+)")), replacement: "S K U $1", line: 2),
            .init(match: .word("dollars"), replacement: "bucks", line: 3),
        ])
        let synthesizer = RecordingSynthesizer()
        let library = SpeechLibrary(synthesizer: synthesizer, pronunciations: dictionary)
        let text = library.speechText(for: "Earshot SKU-42 costs $5", voice: .standard)
        #expect(text.spoken == "ear shot S K U 42 costs 5 bucks")
        // Patterns see the normalized text ("SKU-42" is already "SKU 42"). "shot" came from "Earshot", "bucks"
        // from "$5", and "costs" keeps its place.
        #expect(text.postedRange(ofSpoken: 4..<8) == 0..<7)
        #expect(text.postedRange(ofSpoken: 26..<31) == 21..<23)
        #expect(text.postedRange(ofSpoken: 18..<23) == 15..<20)
        let earshotless = SpeechLibrary(synthesizer: synthesizer).speechText(for: "Earshot", voice: .standard)
        #expect(earshotless.spoken == "Earshot")
    }

    @Test func aWordEntryMatchesWholeWordsIgnoringCase() {
        let dictionary = PronunciationDictionary(entries: [
            .init(match: .word("iOS"), replacement: "eye oh ess", line: 1)
        ])
        #expect(dictionary.apply(to: "IOS apps").spoken == "eye oh ess apps")
        #expect(dictionary.apply(to: "kiosk iOSX").spoken == "kiosk iOSX")
    }

    @Test func theVoicesPunctuationLevelChangesWhatIsSynthesized() throws {
        let synthesizer = RecordingSynthesizer()
        var voice = VoiceProfile.standard
        voice.text.punctuation = .all
        _ = try SpeechLibrary(synthesizer: synthesizer).timing(for: "Hi, you", voice: voice)
        _ = try SpeechLibrary(synthesizer: synthesizer).timing(for: "Hi, you", voice: .standard)
        #expect(synthesizer.requests == ["Hi comma, you", "Hi, you"])
    }

    @Test func theTranscriptShowsTheSpokenTextOnlyWhereItDiffers() throws {
        let bench = Bench()
        bench.post(.announce(TextTemplate(parts: [.literal("Total $61.99")]), priority: .default, queued: false))
        try bench.advance(ms: 3000)
        bench.post(.announce(TextTemplate(parts: [.literal("Results updated")]), priority: .default, queued: false))
        try bench.advance(ms: 3000)
        let transcript = bench.simulation.timeline.transcript()
        #expect(transcript.contains("Total $61.99  ("))
        #expect(transcript.contains("↳ spoken as \"Total 61 dollars and 99 cents\""))
        #expect(transcript.components(separatedBy: "↳ spoken as").count == 2)
    }
}

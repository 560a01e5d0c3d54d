import EarshotAudio
import EarshotBench
import EarshotCore
import EarshotScript
import EarshotSystem
import Foundation
import Testing

/// Only what is heard is synthesized, and nothing heard changes: every shipped script gives the same timeline
/// and the same audio as with every phrase synthesized in full, and cut-heavy runs do a fraction of the work.
@Suite(.serialized) struct SynthesisAsHeardTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Paths relative to the package, e.g. `Scripts/announcement-spam/before-search.earshot`.
    static let scripts: [String] = {
        let folder = root.appendingPathComponent("Scripts").path
        let found = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
        return found.filter { $0.hasSuffix(".\(ScenarioParser.fileExtension)") }.sorted().map { "Scripts/" + $0 }
    }()

    /// What one run gave: its timeline, its mixed audio and the library's work.
    struct Outcome {
        var jsonLines: String
        var samples: [Int16]
        var statistics: SpeechLibrary.Statistics
        var heardFrames: Int
        var heardUtterances: Int
    }

    /// Runs `source` headlessly and mixes it as `earshot render` does, with a library synthesizing as asked.
    static func run(
        source: String, path: String, synthesis: SpeechLibrary.Synthesis, synthesizer: (any Synthesizer)? = nil,
        audioCacheLimit: Int = 64 << 20, spillDirectory: String? = nil
    ) throws -> Outcome {
        let voices = try VoiceLibrary(directory: SpeechFixtures.voicesDirectory)
        let document = try ScenarioParser.parse(source: source, path: path)
        let profile = try ScenarioRunner.profile(for: document)
        let voice = try voices.profile(named: document.header.settings.voice ?? VoiceProfile.standard.name)
        let narrator = (try? voices.profile(named: "narrator")) ?? voice
        let speech = SpeechLibrary(
            synthesizer: try synthesizer ?? SpeechFixtures.synthesizer(), audioCacheLimit: audioCacheLimit,
            pronunciations: voices.pronunciations, spillDirectory: spillDirectory, synthesis: synthesis)
        let run = try ScenarioRunner.run(document, profile: profile, voice: voice, speech: speech)
        let mixer = TimelineMixer(rate: speech.sampleRate)
        mixer.add(
            run.timeline, at: 0, speech: speech,
            options: TimelineMixOptions(
                profile: run.profile, narratorVoice: narrator,
                soundsDirectory: root.appendingPathComponent("Sounds").path))
        let samples = try mixer.renderSamples()
        let heard = run.timeline.heardUtterances
        return Outcome(
            jsonLines: run.timeline.jsonLines(), samples: samples, statistics: speech.statistics,
            heardFrames: heard.map(\.heardFrames).reduce(0, +), heardUtterances: heard.count)
    }

    static func run(script: String, synthesis: SpeechLibrary.Synthesis) throws -> Outcome {
        let source = try String(contentsOf: root.appendingPathComponent(script), encoding: .utf8)
        return try run(source: source, path: script, synthesis: synthesis)
    }

    /// The first part of a phrase is the whole phrase's first part: the same samples and the same word marks.
    @Test(arguments: [1, 2_000, 9_000, 30_000, 61_000])
    func aPhraseStoppedAtAFrameLimitIsTheWholePhrasesBeginning(limit: Int) throws {
        let synthesizer = try SpeechFixtures.synthesizer()
        let whole = try synthesizer.synthesize(SpeechFixtures.twentyWords, voice: .standard)
        let part = try synthesizer.synthesize(SpeechFixtures.twentyWords, voice: .standard, frameLimit: limit)
        #expect(part.stoppedEarly && part.frameCount == limit)
        let sameSamples = part.samples == Array(whole.samples.prefix(limit))
        #expect(sameSamples, "the first \(limit) frames differ")
        #expect(part.words == whole.words.filter { $0.frame < limit })
    }

    /// Word starts read from the first part of the audio are the whole audio's, and a cut anywhere up to
    /// `decidedFrames` lands on the same word.
    @Test(arguments: [4_000, 20_000, 45_000, 70_000])
    func theFirstPartOfTheAudioDecidesTheCutsItCovers(limit: Int) throws {
        let synthesizer = try SpeechFixtures.synthesizer()
        let text = SpeechFixtures.twentyWords
        let whole = SpeechTiming(text: text, speech: try synthesizer.synthesize(text, voice: .standard))
        let part = SpeechTiming(
            text: text, speech: try synthesizer.synthesize(text, voice: .standard, frameLimit: limit))
        #expect(!part.isComplete && part.decidedFrames <= limit)
        #expect(part.words == Array(whole.words.prefix(part.words.count)))
        #expect(part.decidedFrames > limit - 22_050, "no more than a second of audio is undecided")
        for heard in stride(from: 0, through: part.decidedFrames, by: 97) {
            #expect(part.cut(afterFrames: heard) == whole.cut(afterFrames: heard), "cut after \(heard) frames")
        }
    }

    /// The hardest parts: ones that end just past a word's mark, inside its quiet start or its first window, or
    /// before its reference point. Each gives the whole's words for what it decides, and nothing more.
    @Test(arguments: [20, 150, 700, 1_600, 2_400])
    func partsEndingJustPastEachMarkDecideOnlyWhatTheyHold(pastMark: Int) throws {
        let synthesizer = try SpeechFixtures.synthesizer()
        let text = SpeechFixtures.twentyWords
        let speech = try synthesizer.synthesize(text, voice: .standard)
        let whole = SpeechTiming(text: text, speech: speech)
        for mark in speech.words.map(\.frame) where mark + pastMark < speech.frameCount {
            let limit = mark + pastMark
            let part = SpeechTiming(
                text: text, speech: try synthesizer.synthesize(text, voice: .standard, frameLimit: limit))
            #expect(part.words == Array(whole.words.prefix(part.words.count)), "part of \(limit) frames")
            let cuts = [part.decidedFrames, part.decidedFrames - 1, part.decidedFrames - 60, limit / 2]
            for heard in cuts where heard >= 0 && heard <= part.decidedFrames {
                #expect(part.cut(afterFrames: heard) == whole.cut(afterFrames: heard), "\(limit) frames, cut \(heard)")
            }
        }
    }

    /// The reason the loudness threshold is judged per word: with one threshold from the whole utterance's
    /// loudest window, the first part's words would depend on audio after them.
    @Test func aWordsStartDoesNotDependOnAudioAfterItsLimit() throws {
        let text = SpeechFixtures.twentyWords
        let speech = try SpeechFixtures.synthesizer().synthesize(text, voice: .standard)
        var louder = speech
        // The last quarter made four times as loud (clipped): the words before it must not move.
        let quarter = louder.samples.count * 3 / 4
        for index in quarter..<louder.samples.count {
            louder.samples[index] = Int16(clamping: Int(louder.samples[index]) * 4)
        }
        let plain = SpeechTiming(text: text, speech: speech)
        let loud = SpeechTiming(text: text, speech: louder)
        let before = plain.words.indices.dropLast().filter { plain.words[$0 + 1].frame + 110 < quarter }
        #expect(before.count > 10)
        #expect(before.allSatisfy { plain.words[$0] == loud.words[$0] })
    }

    @Test(arguments: scripts)
    func aScriptsTimelineAndAudioAreThoseOfFullSynthesis(script: String) throws {
        let asHeard = try Self.run(script: script, synthesis: .asHeard)
        let whole = try Self.run(script: script, synthesis: .whole)
        #expect(asHeard.jsonLines == whole.jsonLines)
        #expect(asHeard.samples.count == whole.samples.count)
        let sameAudio = asHeard.samples == whole.samples
        #expect(sameAudio, "\(script): the mixed audio differs")
    }
}

extension SynthesisAsHeardTests {

    /// A list of `elements` buttons with labels of their own, swiped through 300 ms apart: the scaling
    /// benchmark's "swiping" with a phrase per row, so each is synthesized and cut.
    static func swiping(elements: Int) -> String {
        let rows = (1...elements).map { "  button row-\($0) \"Order \($0) from Alice Smith, shipped Tuesday\"" }
        return """
            title    "Swiping through \(elements) elements"
            pattern  skeleton-noise
            variant  after
            profile  voiceover

            screen List
            \(rows.joined(separator: "\n"))

            at 0s       focus row-1
            at 1s       swipe next \(max(elements - 1, 1)) times every 300ms
            wait 1s

            """
    }

    /// Synthesized frames stay within twice the heard frames plus two lookaheads per utterance heard (the
    /// first part asked for reaches a lookahead past the next event; when a word needs more, the limit
    /// doubles); full synthesis is far above that bound on the same runs.
    @Test(arguments: ["rapid", "swiping"])
    func cutHeavyRunsSynthesizeLittleMoreThanIsHeard(workload: String) throws {
        let source = workload == "rapid" ? ScalingWorkload.rapid(events: 60) : Self.swiping(elements: 60)
        let asHeard = try Self.run(source: source, path: workload + ".earshot", synthesis: .asHeard)
        let whole = try Self.run(source: source, path: workload + ".earshot", synthesis: .whole)
        #expect(asHeard.jsonLines == whole.jsonLines)
        let lookahead = SpeechLibrary(synthesizer: try SpeechFixtures.synthesizer()).lookaheadFrames
        let bound = 2 * asHeard.heardFrames + 2 * lookahead * asHeard.heardUtterances
        let report =
            "\(workload): heard \(asHeard.heardFrames) frames in \(asHeard.heardUtterances) utterances; synthesized "
            + "\(asHeard.statistics.synthesizedFrames) as heard, \(whole.statistics.synthesizedFrames) in full; "
            + "bound \(bound)"
        print(report)
        #expect(asHeard.statistics.synthesizedFrames <= bound, "\(report)")
        #expect(whole.statistics.synthesizedFrames > 2 * bound, "full synthesis no longer exceeds it: \(report)")
    }
}

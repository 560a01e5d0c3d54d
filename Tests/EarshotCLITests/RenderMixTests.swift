import EarshotAudio
import EarshotCLI
import EarshotCore
import EarshotScript
import EarshotSystem
import Foundation
import Testing

/// Renders on real espeak-ng, in process: where cuts land in the samples, what the transcript says.
@Suite("Rendering with real espeak-ng")
struct RenderMixTests {
    static let header = """
        title    "render test"
        pattern  custom render-test
        variant  before
        profile  voiceover

        screen Home
          button ok "OK"
          button next "Next"

        """

    struct Rendered {
        var run: ScenarioRun
        var speech: SpeechLibrary
        var voice: VoiceProfile
        var mixed: [Int16]
        var rate: Int
    }

    static func render(_ body: String) throws -> Rendered {
        let document = try ScenarioParser.parse(source: header + body, path: "render-test.earshot")
        let synthesizer = try EspeakSynthesizer.shared(voicesDirectory: voicesFolder)
        let voice = try VoiceLibrary(directory: voicesFolder).profile(named: "default")
        let speech = SpeechLibrary(synthesizer: synthesizer)
        let profile = try ScenarioRunner.profile(for: document)
        let run = try ScenarioRunner.run(document, profile: profile, voice: voice, speech: speech)
        let mixer = TimelineMixer(rate: speech.sampleRate)
        mixer.add(
            run.timeline, at: 0, speech: speech, options: TimelineMixOptions(profile: profile, narratorVoice: voice))
        return Rendered(
            run: run, speech: speech, voice: voice, mixed: try mixer.renderSamples(), rate: speech.sampleRate)
    }

    static let cutScript = """
        at 0.5s   announce "Your order has shipped and will arrive on Tuesday"
        at 1.7s   announce "Payment complete"
        wait 2s

        """

    @Test func aCutAtInstantTEndsAtSampleTTimesRateFollowedByTheNextUtterance() throws {
        let rendered = try Self.render(Self.cutScript)
        let records = rendered.run.timeline.heardUtterances
        let cut = try #require(records.first { $0.utterance.text.hasPrefix("Your order") })
        let next = try #require(records.first { $0.utterance.text == "Payment complete" })
        guard case .interrupted(let start, let cutAt, _) = cut.outcome else {
            Issue.record("the first announcement was not cut: \(cut.outcome)")
            return
        }
        #expect(cutAt == .milliseconds(1_700))
        let cutFrame = Instant.milliseconds(1_700).nanoseconds * Int64(rendered.rate) / 1_000_000_000
        #expect(cutFrame == 37_485)
        let startFrame = start.frame(atRate: rendered.rate)
        let heard = Int(cutFrame) - startFrame
        #expect(cut.heardFrames == heard)
        let own = try rendered.speech.audio(for: cut.utterance.text, voice: rendered.voice)
        #expect(own.count > heard + rendered.rate / 2, "the announcement had well over half a second left")
        #expect(Array(rendered.mixed[startFrame..<Int(cutFrame)]) == Array(own[0..<heard]))
        let following = try rendered.speech.audio(for: next.utterance.text, voice: rendered.voice)
        let compared = min(following.count, rendered.rate / 4)
        #expect(Array(rendered.mixed[Int(cutFrame)..<(Int(cutFrame) + compared)]) == Array(following[0..<compared]))
        #expect(
            Array(rendered.mixed[Int(cutFrame)..<(Int(cutFrame) + compared)]) != Array(own[heard..<(heard + compared)]),
            "after the cut the mix no longer carries the cut utterance")
        #expect(own[0..<heard].contains { abs(Int($0)) > 1_000 }, "the heard part is audible speech")
    }

    @Test func theTranscriptsCutWordIsTheWordEspeakWasSpeakingAtTheCut() throws {
        let rendered = try Self.render(Self.cutScript)
        let cut = try #require(rendered.run.timeline.heardUtterances.first { $0.wasInterrupted })
        let timing = try #require(cut.timing)
        let reached = try #require(timing.words.lastIndex { $0.frame <= cut.heardFrames })
        #expect(reached >= 1, "the cut lands after the first word")
        let scalars = Array(cut.utterance.text.unicodeScalars)
        let expectedHeard = String(String.UnicodeScalarView(scalars[0..<timing.words[reached].textRange.upperBound]))
        let cutWord = String(String.UnicodeScalarView(scalars[timing.words[reached].textRange]))
        #expect(cut.cutPoint?.cutWord == cutWord)
        let cues = WebVTT.cues(for: rendered.run.timeline)
        #expect(
            cues.contains { $0.text == expectedHeard + "— ✂ cut by announcement “Payment complete”" },
            "\(cues.map(\.text))")
        // The next word had not started yet: its boundary from espeak-ng lies after the cut.
        if reached + 1 < timing.words.count { #expect(timing.words[reached + 1].frame > cut.heardFrames) }
    }

    @Test func theScreenChangeEarconAndTheScreenReadOverlapAsScheduled() throws {
        let rendered = try Self.render("at 0.5s   screenChanged\nwait 2s\n")
        let read = try #require(rendered.run.timeline.heardUtterances.first)
        let start = try #require(read.start)
        #expect(start == .milliseconds(500))
        let earcon = Earcon.screenChanged(duration: VoiceOverSettings().earconDuration, rate: rendered.rate)
        let at = Instant.milliseconds(500).frame(atRate: rendered.rate)
        let speech = try rendered.speech.audio(for: read.utterance.text, voice: rendered.voice)
        for index in 0..<earcon.count {
            let expected = Int16(clamping: Int32(earcon[index]) + Int32(speech[index]))
            guard rendered.mixed[at + index] == expected else {
                Issue.record("frame \(at + index): \(rendered.mixed[at + index]) is not earcon + speech \(expected)")
                return
            }
        }
        #expect(rendered.mixed[at..<(at + earcon.count)].contains { abs(Int($0)) > 3_000 })
        let after = at + earcon.count
        #expect(Array(rendered.mixed[after..<(after + 1_000)]) == Array(speech[earcon.count..<(earcon.count + 1_000)]))
    }

    @Test func aFailedRenderLeavesNoneOfTheThreeFiles() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        // The transcript's place is taken by a folder, so committing it fails after the WAV was written.
        try FileManager.default.createDirectory(
            atPath: folder.path + "/x.vtt/inside", withIntermediateDirectories: true)
        let captured = CapturedContext()
        let status = Earshot.run(
            ["render", packageRoot + "/Scripts/announcement-spam/before-search.earshot", "-o", folder.path + "/x.wav"],
            context: captured.context)
        #expect(status != 0)
        #expect(folder.contents == ["x.vtt"], "\(folder.contents)")
        let missing = Earshot.run(
            [
                "render", packageRoot + "/Scripts/announcement-spam/before-search.earshot", "-o",
                folder.path + "/no/x.wav",
            ],
            context: captured.context)
        #expect(missing != 0)
        #expect(captured.error.contains("no/x"))
    }

    @Test func compareSaysBeforeAndAfterAroundTheTwoRuns() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let captured = CapturedContext()
        let status = Earshot.run(
            ["compare", packageRoot + "/Scripts/updates-frequently", "-o", folder.path + "/ab.wav"],
            context: captured.context)
        #expect(status == 0, "\(captured.error)")
        let vtt = try String(contentsOfFile: folder.path + "/ab.vtt", encoding: .utf8)
        #expect(vtt.hasPrefix("WEBVTT\n"))
        let texts = vtt.components(separatedBy: "\n\n").dropFirst().compactMap {
            $0.split(separator: "\n").dropFirst(2).first.map(String.init)
        }
        let before = try #require(texts.firstIndex(of: "Before."))
        let after = try #require(texts.firstIndex(of: "After."))
        #expect(before == 0 && after > before + 1)
        let jsonl = try String(contentsOfFile: folder.path + "/ab.jsonl", encoding: .utf8)
        #expect(jsonl.components(separatedBy: "\"type\":\"segment\"").count == 3)
        let wav = try WAVFile.read(path: folder.path + "/ab.wav")
        #expect(wav.durationSeconds > 2 * 14)
    }
}

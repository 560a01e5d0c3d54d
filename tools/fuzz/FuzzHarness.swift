// What one fuzz input goes through: the same steps `earshot check` takes, with a synthesizer whose
// durations are fixed so that every input runs in milliseconds (the tests' FixedSynthesizer, from
// Tests/EarshotTestSupport). Built by tools/fuzz/build.sh into one
// module with EarshotCore and EarshotScript (libFuzzer and AddressSanitizer instrument all of it).
import Foundation

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

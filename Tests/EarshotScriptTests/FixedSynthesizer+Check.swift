import EarshotCore
import EarshotScript
import EarshotTestSupport

extension FixedSynthesizer {
    /// Parses, runs and checks a script's bytes the way `earshot check` does.
    static func check(_ bytes: [UInt8], path: String) throws -> [CheckResult] {
        let document = try ScenarioParser.parse(bytes: bytes, path: path)
        let profile = try ScenarioRunner.profile(for: document)
        let speech = SpeechLibrary(synthesizer: FixedSynthesizer(), audioCacheLimit: 0)
        let run = try ScenarioRunner.run(document, profile: profile, voice: .standard, speech: speech)
        _ = FindingRules.findings(in: run.timeline)
        _ = run.timeline.transcript()
        return CheckEvaluator(run: run).evaluate()
    }
}

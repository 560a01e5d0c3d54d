import EarshotCore
import EarshotScript
import EarshotSystem
import Foundation

/// Runs small scripts with real espeak-ng durations and judges their checks, for the check-language tests.
enum CheckTestSupport {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The run of a script's source.
    static func run(_ source: String, path: String = "test.earshot") throws -> ScenarioRun {
        let document = try ScenarioParser.parse(source: source, path: path)
        let synthesizer = try EspeakSynthesizer.shared(voicesDirectory: root.appendingPathComponent("Voices").path)
        return try ScenarioRunner.run(
            document, profile: try ScenarioRunner.profile(for: document), voice: .standard,
            speech: SpeechLibrary(synthesizer: synthesizer))
    }

    /// The verdict on one assertion line added to `body` (a header, a screen and a timeline).
    static func verdict(_ assertion: String, in body: String) throws -> AssertionResult? {
        let run = try run(body + "\ncheck \"under test\":\n  \(assertion)\n")
        return CheckEvaluator(run: run).evaluate().first?.assertions.first
    }

    /// A parse failure's messages, or an empty list when the source parses.
    static func parseErrors(_ source: String) -> [String] {
        do {
            _ = try ScenarioParser.parse(source: source, path: "test.earshot")
            return []
        } catch {
            return error.diagnostics.map(\.message)
        }
    }
}

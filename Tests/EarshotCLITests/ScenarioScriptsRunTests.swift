import EarshotCLI
import EarshotCore
import EarshotScript
import EarshotSystem
import Foundation
import Testing

/// Every script under Scripts/ runs with real espeak-ng durations: each before fails its checks (the test names
/// the failing ones), each after passes, and a pair that passes both ways fails the suite.
@Suite struct ScenarioScriptsRunTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let scripts: [String] = {
        let folder = root.appendingPathComponent("Scripts").path
        let files = FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []
        return files.filter { $0.hasSuffix(".earshot") }.sorted()
    }()

    static func verdicts(_ relative: String) throws -> (run: ScenarioRun, checks: [CheckResult]) {
        let path = root.appendingPathComponent("Scripts").appendingPathComponent(relative).path
        let document = try ScenarioParser.parse(source: try String(contentsOfFile: path, encoding: .utf8), path: path)
        let synthesizer = try EspeakSynthesizer.shared(voicesDirectory: root.appendingPathComponent("Voices").path)
        let profile = try ScenarioRunner.profile(for: document)
        let run = try ScenarioRunner.run(
            document, profile: profile, voice: .standard, speech: SpeechLibrary(synthesizer: synthesizer))
        return (run, CheckEvaluator(run: run).evaluate())
    }

    @Test func everyPatternCardHasScripts() {
        let patterns = Set(Self.scripts.compactMap { $0.split(separator: "/").first.map(String.init) })
        #expect(
            patterns == [
                "announcement-spam", "audio-only-task", "meaningful-announcement", "skeleton-noise",
                "updates-frequently",
            ])
        #expect(Self.scripts.count >= 10)
    }

    @Test(arguments: scripts)
    func scriptBehavesAsItsVariantSays(script: String) throws {
        let (run, checks) = try Self.verdicts(script)
        #expect(!checks.isEmpty, "\(script) has no checks")
        let failing = checks.filter { !$0.passed }.map(\.name)
        switch run.document.header.variant {
        case .before:
            #expect(!failing.isEmpty, "\(script): a before script must fail its checks, and every check passed")
            print("\(script) fails: \(failing.joined(separator: "; "))")
        case .after, .standalone:
            #expect(failing.isEmpty, "\(script): an after script must pass every check; failing: \(failing)")
        }
    }

    @Test(arguments: scripts.filter { $0.contains("/before") })
    func everyFailingBeforeCheckPassesInItsAfter(script: String) throws {
        let partner = script.replacingOccurrences(of: "/before", with: "/after")
        try #require(Self.scripts.contains(partner), "\(script) has no after script \(partner)")
        let before = try Self.verdicts(script).checks
        let after = try Self.verdicts(partner).checks
        #expect(before.map(\.name) == after.map(\.name), "a pair must carry the same checks")
        let passedBoth = zip(before, after).filter { $0.passed && $1.passed }.map(\.0.name)
        #expect(passedBoth.count < before.count, "\(script) and \(partner) pass every check both ways: \(passedBoth)")
    }
}

import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import Testing

/// `earshot check` as a CI job sees it: exit statuses, evidence, findings, JUnit, and malformed scripts.
@Suite struct CheckCommandTests {
    static let scripts = packageRoot + "/Scripts"

    @Test func anAfterScriptPassesWithStatusZeroAndABeforeFailsWithOne() throws {
        let after = try EarshotBinary.run(["check", Self.scripts + "/announcement-spam/after-search.earshot"])
        #expect(after.status == 0)
        #expect(after.output.contains("✔ nothing announced while typing"))
        let before = try EarshotBinary.run(["check", Self.scripts + "/announcement-spam/before-search.earshot"])
        #expect(before.status == 1)
        #expect(before.output.contains("✘ nothing announced while typing"))
        #expect(before.output.contains("cut by typingEcho"))
        #expect(before.output.contains("announcement-while-typing"))
        #expect(before.output.contains("read docs/patterns/announcement-spam.md"))
    }

    @Test func aPatternNameRunsItsFolderAndExpectVariantsPassesWhenBeforesFail() throws {
        let result = try EarshotBinary.run(["check", "--expect-variants", "announcement-spam"], in: packageRoot)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("6 scripts:"))
        #expect(result.output.contains("as expected: every before script fails a check"))
    }

    @Test func expectVariantsFailsWhenABeforeScriptPassesEverything() throws {
        let folder = NSTemporaryDirectory() + "earshot-check-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fixed = try String(
            contentsOfFile: Self.scripts + "/announcement-spam/after-search.earshot", encoding: .utf8
        )
        .replacingOccurrences(of: "variant  after", with: "variant  before")
        try fixed.write(toFile: folder + "/before-search.earshot", atomically: true, encoding: .utf8)
        let result = try EarshotBinary.run(["check", "--expect-variants", folder])
        #expect(result.status == 1)
        #expect(result.error.contains("must fail at least one check"))
    }

    @Test func junitNamesEveryCheckAndCarriesTheFailureEvidence() throws {
        let folder = NSTemporaryDirectory() + "earshot-junit-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let junit = folder + "/results.xml"
        let result = try EarshotBinary.run(
            [
                "check", "--junit", junit, Self.scripts + "/announcement-spam/before-search.earshot",
                Self.scripts + "/announcement-spam/after-search.earshot",
            ])
        #expect(result.status == 1)
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("<testsuites name=\"earshot check\" tests=\"4\" failures=\"2\">"))
        #expect(xml.contains("name=\"nothing announced while typing\""))
        #expect(xml.contains("<failure message=\"no announcement while typing\">"))
        let parser = XMLParser(data: Data(xml.utf8))
        #expect(parser.parse(), "JUnit output must be well-formed XML")
    }

    @Test func junitUnderExpectVariantsAgreesWithTheExitStatus() throws {
        let folder = NSTemporaryDirectory() + "earshot-junit-variants-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let junit = folder + "/results.xml"
        let result = try EarshotBinary.run(
            [
                "check", "--expect-variants", "--junit", junit,
                Self.scripts + "/announcement-spam/before-search.earshot",
                Self.scripts + "/announcement-spam/after-search.earshot",
            ])
        #expect(result.status == 0, "\(result.error)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("<testsuites name=\"earshot check\" tests=\"3\" failures=\"0\">"))
        #expect(xml.contains("name=\"fails at least one check (a before script)\""))
        #expect(xml.contains("✘ nothing announced while typing (as expected)"), "the failed checks go to system-out")
        #expect(!xml.contains("<failure"))
        #expect(XMLParser(data: Data(xml.utf8)).parse())

        // A before script that passes everything is the one failure, as the exit status says.
        let passing = try String(
            contentsOfFile: Self.scripts + "/announcement-spam/after-search.earshot", encoding: .utf8
        )
        .replacingOccurrences(of: "variant  after", with: "variant  before")
        try passing.write(toFile: folder + "/before-search.earshot", atomically: true, encoding: .utf8)
        let wrong = try EarshotBinary.run([
            "check", "--expect-variants", "--junit", junit, folder + "/before-search.earshot",
        ])
        #expect(wrong.status == 1)
        let wrongXML = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(wrongXML.contains("tests=\"1\" failures=\"1\""))
        #expect(wrongXML.contains("every check passed; a before script must fail at least one"))
    }

    @Test func aDataTableMissIsARuntimeErrorNamingTheLineAndKeyAndWritesNothing() throws {
        let folder = NSTemporaryDirectory() + "earshot-miss-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = try String(
            contentsOfFile: Self.scripts + "/announcement-spam/after-search.earshot", encoding: .utf8
        )
        .replacingOccurrences(of: "data results-for query default \"no\":", with: "data results-for query:")
        .replacingOccurrences(of: "type \"jasmine\"", with: "type \"jx\"")
        try script.write(toFile: folder + "/after-miss.earshot", atomically: true, encoding: .utf8)
        let check = try EarshotBinary.run(["check", folder + "/after-miss.earshot"])
        #expect(check.status == 1)
        #expect(
            check.error.contains("after-miss.earshot:18:3: data table 'results-for' has no entry for \"jx\""),
            "\(check.error)")
        let render = try EarshotBinary.run(["render", folder + "/after-miss.earshot", "-o", folder + "/out.wav"])
        #expect(render.status == 1)
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.wav"))

        // With the shipped table's default the same typing runs and says "no results".
        let fallback = script.replacingOccurrences(
            of: "data results-for query:", with: "data results-for query default \"no\":")
        try fallback.write(toFile: folder + "/after-miss.earshot", atomically: true, encoding: .utf8)
        let fine = try EarshotBinary.run(["check", "--transcript", folder + "/after-miss.earshot"])
        #expect(!fine.error.contains("data table"), "\(fine.error)")
        #expect(fine.output.contains("announce \"no results\""), "the run goes on to the end")
    }

    @Test func aStandaloneScenarioPassesOrFailsOnItsChecksAlone() throws {
        let folder = NSTemporaryDirectory() + "earshot-standalone-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = { (check: String) in
            "title \"a rule\"\nscreen S\n  button a \"Alpha\"\nat 0s focus a\nwait 1s\ncheck \"c\":\n  \(check)\n"
        }
        try script("focus is on a at 500ms").write(toFile: folder + "/rule.earshot", atomically: true, encoding: .utf8)
        let passing = try EarshotBinary.run(["check", "--expect-variants", folder + "/rule.earshot"])
        #expect(passing.status == 0, "\(passing.error)")
        try script("focus is on nothing at 500ms").write(
            toFile: folder + "/rule.earshot", atomically: true, encoding: .utf8)
        let failing = try EarshotBinary.run(["check", "--expect-variants", folder + "/rule.earshot"])
        #expect(failing.status == 1)
        #expect(failing.error.contains("a standalone script must pass every check"))
    }

    @Test func aMalformedScriptRunsNothingAndExitsTwoWithFileLineAndCaret() throws {
        let folder = NSTemporaryDirectory() + "earshot-bad-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let good = try String(contentsOfFile: Self.scripts + "/announcement-spam/after-search.earshot", encoding: .utf8)
        try good.write(toFile: folder + "/after-good.earshot", atomically: true, encoding: .utf8)
        let bad = good.replacingOccurrences(of: "at 0s      focus query", with: "at 0s      focus qurey")
        try bad.write(toFile: folder + "/before-bad.earshot", atomically: true, encoding: .utf8)
        let junit = folder + "/results.xml"
        let result = try EarshotBinary.run(["check", "--junit", junit, folder])
        #expect(result.status == 2)
        #expect(result.error.contains("before-bad.earshot:22:18: error: unknown element 'qurey'"))
        #expect(result.error.contains("did you mean 'query'?"))
        #expect(result.error.contains("^"))
        #expect(!result.output.contains("after-good.earshot —"), "nothing runs when a script is malformed")
        #expect(!FileManager.default.fileExists(atPath: junit))
    }
}

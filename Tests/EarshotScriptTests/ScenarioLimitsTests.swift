import EarshotCore
import EarshotTestSupport
import Foundation
import Testing

@testable import EarshotScript

/// Every input that used to crash the parser or the runner is a located error now, and each limit
/// (docs/scenario-format.md, "Limits") accepts its bound and rejects one past it.
@Suite struct ScenarioLimitsTests {
    static let header = "title \"T\"\npattern custom p\nvariant before\nscreen S\n  button ok \"OK\"\n"

    /// The diagnostics for `header + body`, or [] when it parses.
    static func diagnostics(_ body: String, header: String = header) -> [ScriptDiagnostic] {
        do {
            _ = try ScenarioParser.parse(source: header + body, path: "x.earshot")
            return []
        } catch {
            return error.diagnostics
        }
    }

    /// Parses and runs `header + body` with fixed-length speech; throws its diagnostics.
    static func runs(_ body: String) throws -> [CheckResult] {
        try FixedSynthesizer.check(Array((header + body).utf8), path: "x.earshot")
    }

    @Test(
        "huge durations and counts are located errors, not overflows",
        arguments: [
            ("at 9223372036854775807ms focus ok", 6, 4, "'9223372036854775807ms' is longer than the 24-hour limit"),
            ("at 9999999999h focus ok", 6, 4, "'9999999999h' is longer than the 24-hour limit"),
            ("+9999999999h focus ok", 6, 1, "'+9999999999h' is longer than the 24-hour limit"),
            ("wait 153722867m", 6, 6, "'153722867m' is longer than the 24-hour limit"),
            ("wait 9223372036s", 6, 6, "'9223372036s' is longer than the 24-hour limit"),
            ("wait 0.999999999h\nwait 9223372036.5s", 7, 6, "'9223372036.5s' is longer than the 24-hour limit"),
            ("duration 9223372036s", 6, 10, "'9223372036s' is longer than the 24-hour limit"),
            ("on activate ok:\n  after 9999999999h:\n    announce \"x\"", 7, 9, "is longer than the 24-hour limit"),
            (
                "at 0s every 1s for 153722867m announce \"x\"", 6, 20,
                "'153722867m' is longer than the 24-hour limit"
            ),
            (
                "check \"c\":\n  no announcement between 0s and 9223372036854775807ms", 7, 34,
                "is longer than the 24-hour limit"
            ),
            ("wait 20h\nwait 5h", 7, 1, "the timeline reaches 90000.000s, past the 24-hour limit"),
            ("at 23h focus ok\n+0s every 1h times 2 announce \"x\"", 7, 1, "past the 24-hour limit"),
            (
                "at 0s every 1ms for 1h announce \"x\"", 6, 1,
                "this line schedules more than 1,000,000 events (repetitions, keys and swipes)"
            ),
            (
                "at 0s every 1s times 9223372036854775807 announce \"x\"", 6, 1,
                "this line schedules more than 1,000,000 events"
            ),
            (
                "at 0s swipe next 9223372036854775807 times every 1ms", 6, 1,
                "this line schedules more than 1,000,000 events"
            ),
            (
                "at 0s every 1ms times 600000 announce \"x\"\nat 0s every 1ms times 400001 announce \"y\"", 7, 1,
                "the timeline reaches more than 1,000,000 events"
            ),
            ("announce \"{countdown 9999999999h}\"", 6, 11, "is longer than the 24-hour limit"),
            ("scan-step 0s", 6, 11, "the scan step time must be at least 100ms"),
            ("poll 99ms", 6, 6, "the poll interval must be at least 100ms"),
        ] as [(String, Int, Int, String)])
    func overflowingTimesAreLocatedErrors(body: String, line: Int, column: Int, message: String) throws {
        let found = Self.diagnostics(body)
        let diagnostic = try #require(found.first, "\(body) must be rejected")
        #expect(found.count == 1, "\(found.map(\.description))")
        #expect(diagnostic.location.line == line && diagnostic.location.column == column, "\(diagnostic)")
        #expect(diagnostic.message.contains(message), "\(diagnostic.message)")
    }

    @Test(
        "times and counts up to the limits parse and run",
        arguments: [
            "wait 24h",
            "at 0s focus ok\nwait 0.999999999h",
            "at 0s every 1s for 24h announce \"x\"",
            "at 0s every 86.4ms times 1000000 announce \"x\"",
            "at 0s every 1ms times 999999 announce \"x\"\nat 1h activate ok",
            "at 0s swipe next 1000000 times every 1ms",
            "scan-step 100ms\npoll 100ms",
        ])
    func timesUpToTheLimitsParse(body: String) throws {
        #expect(Self.diagnostics(body).isEmpty, "\(Self.diagnostics(body).map(\.description))")
    }

    @Test func aScenarioOfExactly24HoursRunsToItsEnd() throws {
        let results = try Self.runs(
            "at 0s every 1h for 24h announce \"tick\"\ncheck \"c\":\n  at least 24 announcement matching \"tick\"\n")
        #expect(results.allSatisfy { $0.passed }, "\(results)")
    }

    @Test func aSwitchControlScanAtTheShortestStepRunsAnHour() throws {
        let results = try Self.runs(
            "profile switch-control\nscan-step 100ms\nduration 1h\ncheck \"c\":\n  at least 100 scan stops on ok\n")
        #expect(results.allSatisfy { $0.passed }, "\(results)")
    }

    static func nested(_ depth: Int) -> String {
        var text = "on activate ok:\n"
        for level in 1..<depth { text += String(repeating: " ", count: level) + "after 1ms:\n" }
        return text + String(repeating: " ", count: depth) + "announce \"deep\"\n"
    }

    @Test func blocksNestedDeeperThan64LevelsAreALocatedError() throws {
        // The `on` line (line 6) is at the top level; `nested(n)` puts the announcement n levels inside it.
        #expect(Self.diagnostics(Self.nested(ScenarioLimits.deepestNesting)).isEmpty)
        let found = Self.diagnostics(Self.nested(ScenarioLimits.deepestNesting + 1))
        let diagnostic = try #require(found.first)
        #expect(found.count == 1)
        #expect(diagnostic.location.line == 6 + ScenarioLimits.deepestNesting + 1)
        #expect(diagnostic.location.column == ScenarioLimits.deepestNesting + 2)
        #expect(diagnostic.message == "blocks nested more than 64 levels deep")
    }

    @Test func threeThousandNestingLevelsDoNotOverflowTheStack() throws {
        let found = Self.diagnostics(Self.nested(3000))
        #expect(found.map(\.message) == ["blocks nested more than 64 levels deep"])
    }

    @Test func nestedBlocksWithinTheLimitRun() throws {
        let results = try Self.runs(
            "at 1s activate ok\n" + Self.nested(ScenarioLimits.deepestNesting)
                + "check \"c\":\n  exactly 1 announcement matching \"deep\"\n")
        #expect(results.allSatisfy { $0.passed }, "\(results)")
    }

    @Test func aScriptWithoutAScreenIsALocatedError() throws {
        let header = "title \"T\"\npattern custom p\nvariant before\n"
        let found = Self.diagnostics("at 0s announce \"x\"\n", header: header)
        #expect(found.map(\.message) == ["the script declares no screen"])
        #expect(found.first?.location == SourceLocation(path: "x.earshot", line: 1, column: 1))
        #expect(Self.diagnostics("at 0s announce \"x\"\n").isEmpty)
    }

    @Test(
        "a script cut off anywhere parses to a result or a located error, and runs",
        arguments: [4, 5, 6, 9, 10, 13, 16, 20])
    func truncatedScriptsNeverCrash(lines: Int) throws {
        let path = Self.packageRoot + "/Scripts/announcement-spam/before-search.earshot"
        let full = try String(contentsOfFile: path, encoding: .utf8)
        let cut = full.split(separator: "\n", omittingEmptySubsequences: false).prefix(lines).joined(separator: "\n")
        do {
            _ = try FixedSynthesizer.check(Array(cut.utf8), path: "cut.earshot")
        } catch let error as ScriptDiagnostics {
            #expect(!error.diagnostics.isEmpty)
            #expect(error.diagnostics.allSatisfy { $0.location.line >= 1 && $0.location.column >= 1 })
        }
    }

    @Test func aSimulationWithoutScreensRunsOnAnEmptyScreen() throws {
        let simulation = Simulation(screens: [], speech: SpeechLibrary(synthesizer: FixedSynthesizer()))
        simulation.schedule(.swipeNext, at: .milliseconds(10))
        try simulation.finish(at: .milliseconds(100))
        #expect(simulation.screen.elements.isEmpty)
    }

    @Test func stringsUpToTheLimitParseAndLongerOnesAreLocatedErrors() throws {
        let limit = ScenarioLimits.longestString
        #expect(Self.diagnostics("announce \"\(String(repeating: "a", count: limit))\"").isEmpty)
        let found = Self.diagnostics("announce \"\(String(repeating: "a", count: 1_000_000))\"")
        #expect(found.map(\.message) == ["a string of 1,000,000 characters is longer than the 10,000-character limit"])
        #expect(found.first.map { ($0.location.line, $0.location.column) } ?? (0, 0) == (6, 10))
    }

    @Test func elementsUpToTheLimitParseAndMoreAreALocatedError() throws {
        let header = "title \"T\"\npattern custom p\nvariant before\nscreen S\n"
        #expect(Self.diagnostics("  repeat 10000:\n    button b \"B\"\n", header: header).isEmpty)
        let found = Self.diagnostics("  button a \"A\"\n  repeat 10000:\n    button b \"B\"\n", header: header)
        #expect(found.map(\.message) == ["more than 10,000 elements"])
        #expect(found.first?.location.line == 7)
    }

    @Test func aRepeatOfABillionIsALocatedErrorWithoutBuildingAnything() throws {
        let header = "title \"T\"\npattern custom p\nvariant before\nscreen S\n"
        let found = Self.diagnostics("  repeat 1000000000:\n    button b \"B\"\n", header: header)
        #expect(found.map(\.message) == ["repeat 1,000,000,000 is more than the 10,000-element limit"])
        #expect(found.first.map { ($0.location.line, $0.location.column) } ?? (0, 0) == (5, 10))
    }

    @Test func aRepeatedMistakeIsReportedOnceNotOncePerCopy() throws {
        let header = "title \"T\"\npattern custom p\nvariant before\nscreen S\n"
        let found = Self.diagnostics("  repeat 5000:\n    buton b \"B\"\n", header: header)
        #expect(found.count == 1)
        #expect(found.first?.message == "unknown element kind 'buton'")
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
}

/// Time arithmetic clamps instead of trapping.
@Suite struct SaturatingTimeTests {
    @Test func sumsAndDifferencesPastTheEndsClamp() {
        let late = Instant(nanoseconds: .max - 5)
        #expect((late + TimeSpan(nanoseconds: 10)).nanoseconds == .max)
        #expect((Instant(nanoseconds: .min + 5) - TimeSpan(nanoseconds: 10)).nanoseconds == .min)
        #expect((Instant(nanoseconds: .min) - late).nanoseconds == .min)
        #expect((TimeSpan(nanoseconds: 3_600_000_000_000) * Int.max).nanoseconds == .max)
        #expect((TimeSpan(nanoseconds: -1) * Int.max).nanoseconds == -Int64.max)
        #expect(TimeSpan.milliseconds(.max).nanoseconds == .max)
        #expect(TimeSpan.seconds(.infinity).nanoseconds == .max)
        #expect(TimeSpan.seconds(.nan).nanoseconds == 0)
        #expect(TimeSpan(nanoseconds: .min).formatted.hasPrefix("-"))
    }

    @Test func ordinaryArithmeticIsExact() {
        #expect((Instant.milliseconds(1500) + .milliseconds(250)).nanoseconds == 1_750_000_000)
        #expect((Instant.milliseconds(1500) - Instant.milliseconds(250)) == .milliseconds(1250))
        #expect((TimeSpan.milliseconds(150) * 3) == .milliseconds(450))
    }

    @Test func framesOfHugeInstantsDoNotOverflow() {
        #expect(Instant(nanoseconds: .max).frame(atRate: 22050) == 203_375_353_412_647)
        #expect(Instant(nanoseconds: 1_000_000_000).frame(atRate: 22050) == 22050)
        #expect(Instant(nanoseconds: 999_999_999).frame(atRate: 22050) == 22049)
        #expect(Instant.ofFrame(22050, rate: 22050) == Instant(nanoseconds: 1_000_000_000))
        #expect(Instant.ofFrame(.max, rate: 22050).nanoseconds > 0)
    }

    @Test func durationLiteralsTooLargeForTheClockSaturate() {
        #expect(DurationLiteral.span("9223372036854775807ms")?.nanoseconds == .max)
        #expect(DurationLiteral.span("0.999999999h")?.nanoseconds == 3_599_999_996_400)
        #expect(DurationLiteral.span("1.5s")?.nanoseconds == 1_500_000_000)
        #expect(DurationLiteral.span("99999999999999999999s") == nil, "not an Int64: malformed")
    }
}

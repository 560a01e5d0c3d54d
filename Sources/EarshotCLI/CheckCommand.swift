import EarshotAudio
import EarshotCore
import EarshotScript
import Foundation

/// `earshot check PATH...`: runs scenario scripts headlessly with real espeak-ng durations and judges them.
///
/// Prints each check as pass or fail with its evidence, then the findings (the cards' anti-patterns, found
/// whatever the checks say). Exit status: 0 when every check passes, 1 when any fails (or a recorded
/// `NAME.transcript` no longer matches the run), 2 when a script is
/// malformed (nothing runs then), 64 for a bad command line. With `--expect-variants`, a `before` script is
/// expected to fail at least one check and an `after` script to pass all: the status says whether they did.
public struct CheckCommand: Command {
    /// Creates the command.
    public init() {}

    public let signature = CommandSignature(
        name: "check", summary: "Run scenario scripts headlessly and judge their checks.",
        discussion: """
            PATH is a script, a folder of scripts, or a pattern name (a folder under Scripts/). Each check \
            prints ✔ or ✘ with the evidence: times, the phrases heard, what cut what. Findings name the \
            cards' anti-patterns with a rule id, an impact and the page to read (docs/patterns/).
            """,
        arguments: [ArgumentSpec("path", arity: .oneOrMore, help: "Scripts, folders or pattern names.")],
        options: [
            ScenarioInputs.profileOption,
            ReaderOptions.reader,
            VoiceOptions.voice,
            VoiceOptions.voices,
            CacheOptions.noCache,
            CacheOptions.jobs,
            .value("junit", valueName: "file.xml", help: "Also write the results as JUnit XML."),
            .flag("transcript", help: "Print each run's timeline as a transcript."),
            .value(
                "jsonl", valueName: "folder",
                help: "Also write each run's timeline as JSON Lines, FOLDER/<pattern>-<script>.jsonl."),
            .flag("expect-variants", help: "Pass when every before script fails a check and every after passes."),
            .flag("quiet", short: "q", help: "Print only failing checks and the summary."),
        ] + CheckOutputs.options + [CheckWatch.option],
        examples: [
            "check Scripts/",
            "check announcement-spam --transcript",
            "check --expect-variants --junit results.xml Scripts/",
            "check --profile switch-control Scripts/skeleton-noise/after-switch-control.earshot",
            "check --format json --sarif findings.sarif Scripts/",
            "check --record Scripts/   (then: check Scripts/ fails when a timeline changes; --update accepts)",
            "check --watch Scripts/announcement-spam/",
        ])

    public func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        let outputs = try CheckOutputs(arguments)
        if arguments.flag(CheckWatch.option.long) {
            return try CheckWatch.loop(arguments, words: arguments.arguments("path"), context: context) {
                try runOnce(arguments, outputs, context)
            }
        }
        return try runOnce(arguments, outputs, context)
    }

    func runOnce(_ arguments: ParsedArguments, _ outputs: CheckOutputs, _ context: CommandContext) throws -> Int32 {
        let paths = try ScenarioInputs.scriptPaths(arguments.arguments("path"), context: context)
        let documents = try ScenarioInputs.parse(paths)
        let speech = try ScenarioInputs.speech(arguments, context: context, keepingAudio: false)
        let quiet = arguments.flag("quiet")
        let expectVariants = arguments.flag("expect-variants")
        let style = TerminalStyle(context: context)
        var reports: [ScriptReport] = []
        var golden: [GoldenTranscript.Verdict] = []
        // Scripts run side by side (up to --jobs), and are reported in order as a serial run would. Each script's
        // phrases go to a free espeak-ng helper (one per core), so at most --jobs phrases are in flight.
        let jobs = try CacheOptions.jobs(arguments)
        try ParallelRuns.forEach(count: documents.count, jobs: jobs) { index in
            let run = try ScenarioInputs.run(documents[index], speech: speech, arguments: arguments)
            return ScriptReport(
                run: run, checks: CheckEvaluator(run: run).evaluate(), findings: FindingRules.findings(in: run.timeline)
            )
        } deliver: { _, report in
            let run = report.run
            reports.append(report)
            golden.append(try outputs.goldenVerdict(for: run))
            guard outputs.printsText else { return }
            context.writeOutput(report.text(quiet: quiet, style: style))
            context.writeOutput(CheckOutputs.text(golden[golden.count - 1], style: style))
            if arguments.flag("transcript") { context.writeOutput(run.timeline.transcript() + "\n") }
        }
        if let junit = arguments.value("junit") {
            try AtomicFile.write(JUnitReport.xml(reports, expectVariants: expectVariants), to: junit)
        }
        if let folder = arguments.value("jsonl") {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for report in reports {
                let path = report.run.document.path
                let pattern = URL(fileURLWithPath: path).deletingLastPathComponent().lastPathComponent
                let name = folder + "/" + pattern + "-" + URLPath.stem(path) + ".jsonl"
                try AtomicFile.write(report.run.timeline.jsonLines(), to: name)
            }
        }
        let checkReport = CheckReport(reports, golden: golden)
        try outputs.finish(checkReport, context: context)
        let failedChecks = reports.flatMap(\.checks).filter { !$0.passed }.count
        let totalChecks = reports.flatMap(\.checks).count
        let unexpected = reports.filter { !$0.matchesVariant }
        let changed = checkReport.changedTranscripts.count
        let printsText = outputs.printsText
        let print: (String) -> Void = { line in if printsText { context.print(line) } }
        let transcripts = changed == 0 ? "" : "; \(changed) transcript\(changed == 1 ? "" : "s") changed"
        print(
            "\(reports.count) script\(reports.count == 1 ? "" : "s"): \(totalChecks - failedChecks) of "
                + "\(totalChecks) checks pass\(transcripts)")
        if expectVariants {
            for report in unexpected {
                context.printError(
                    "\(report.run.document.path): a \(report.run.document.header.variant.rawValue) script "
                        + (report.run.document.header.variant == .before
                            ? "must fail at least one check, and every check passed"
                            : "must pass every check"))
            }
            print(
                unexpected.isEmpty
                    ? "as expected: every before script fails a check and every after script passes all"
                    : "\(unexpected.count) script(s) did not behave as their variant says")
            return unexpected.isEmpty && changed == 0 ? ExitCode.success : ExitCode.failure
        }
        return failedChecks == 0 && changed == 0 ? ExitCode.success : ExitCode.failure
    }
}

/// One script's verdicts and findings, printable.
public struct ScriptReport: Sendable {
    /// The run.
    public var run: ScenarioRun
    /// The checks' verdicts.
    public var checks: [CheckResult]
    /// The findings.
    public var findings: [Finding]

    /// True when a before script failed a check or an after script passed them all.
    public var matchesVariant: Bool {
        let allPass = checks.allSatisfy(\.passed)
        return run.document.header.variant == .before ? !allPass : allPass  // after and standalone: all pass
    }

    /// The report as the terminal shows it.
    public func text(quiet: Bool, style: TerminalStyle = .plain) -> String {
        let document = run.document
        var lines = [
            "\(document.path) — \(document.header.title) (\(document.header.variant.rawValue), "
                + "\(run.profile.label), voice \(run.voice.name))"
        ]
        for check in checks where !(quiet && check.passed) {
            lines.append("  \(check.passed ? style.pass("✔") : style.fail("✘")) \(check.name)")
            for assertion in check.assertions {
                lines.append(
                    "      \(assertion.passed ? style.pass("✔") : style.fail("✘")) \(assertion.text)  "
                        + style.dim("[\(assertion.location)]"))
                if !quiet || !assertion.passed {
                    lines += assertion.evidence.map { "          \($0)" }
                }
            }
        }
        if !findings.isEmpty {
            lines.append("  findings:")
            for finding in findings {
                lines.append(
                    "    \(finding.impact.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) "
                        + "\(finding.rule) ×\(finding.occurrences) — read \(finding.page): \(finding.message)"
                        + (run.profile.reader == .voiceOver ? "" : " (under \(run.profile.reader.displayName))"))
            }
        }
        return lines.joined(separator: "\n") + "\n\n"
    }
}

/// JUnit XML for CI dashboards: one test suite per script, one test case per check.
///
/// With `--expect-variants` the XML says what the exit status says: a `before` script is one test case,
/// "fails at least one check", that passes when some check failed (the failed checks and their evidence
/// go to its `system-out`) and fails when every check passed; an `after` script keeps one test case per
/// check, each failing check a failure.
public enum JUnitReport {
    /// One `testcase` element's content.
    struct TestCase {
        var classname: String
        var name: String
        var location: SourceLocation
        /// The failure's message and body, when it failed.
        var failure: (message: String, body: String)?
        /// What goes to the test case's `system-out`.
        var output: String?
    }

    /// The XML document; `expectVariants` judges `before` scripts by whether they fail, as the exit status does.
    public static func xml(_ reports: [ScriptReport], expectVariants: Bool = false) -> String {
        let suites = reports.map { report in (report, testCases(report, expectVariants: expectVariants)) }
        let total = suites.map(\.1.count).reduce(0, +)
        let failures = suites.map { $0.1.filter { $0.failure != nil }.count }.reduce(0, +)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"earshot check\" tests=\"\(total)\" failures=\"\(failures)\">\n"
        for (report, cases) in suites {
            let document = report.run.document
            let failed = cases.filter { $0.failure != nil }.count
            xml +=
                "  <testsuite name=\"\(escape(document.path))\" tests=\"\(cases.count)\" failures=\"\(failed)\">\n"
            xml +=
                "    <properties><property name=\"variant\" value=\"\(document.header.variant.rawValue)\"/>"
                + "<property name=\"profile\" value=\"\(escape(report.run.profile.name))\"/></properties>\n"
            for testCase in cases {
                xml +=
                    "    <testcase classname=\"\(escape(testCase.classname))\" name=\"\(escape(testCase.name))\""
                    + " file=\"\(escape(testCase.location.path))\" line=\"\(testCase.location.line)\""
                guard testCase.failure != nil || testCase.output != nil else {
                    xml += "/>\n"
                    continue
                }
                xml += ">\n"
                if let failure = testCase.failure {
                    xml += "      <failure message=\"\(escape(failure.message))\">\(escape(failure.body))</failure>\n"
                }
                if let output = testCase.output {
                    xml += "      <system-out>\(escape(output))</system-out>\n"
                }
                xml += "    </testcase>\n"
            }
            if !report.findings.isEmpty {
                let findings = report.findings.map { "\($0.impact.rawValue) \($0.rule): \($0.message)" }
                xml += "    <system-out>\(escape(findings.joined(separator: "\n")))</system-out>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    /// The test cases of one script.
    static func testCases(_ report: ScriptReport, expectVariants: Bool) -> [TestCase] {
        let document = report.run.document
        let classname = document.header.pattern ?? "scenario"
        guard expectVariants, document.header.variant == .before else {
            return report.checks.map { check in
                TestCase(
                    classname: classname, name: check.name, location: check.location,
                    failure: check.passed ? nil : failure(check.assertions.filter { !$0.passed }))
            }
        }
        let failedChecks = report.checks.filter { !$0.passed }
        let location = report.checks.first?.location ?? SourceLocation(path: document.path, line: 1, column: 1)
        let name = "fails at least one check (a before script)"
        guard !failedChecks.isEmpty else {
            return [
                TestCase(
                    classname: classname, name: name, location: location,
                    failure: (
                        "every check passed; a before script must fail at least one",
                        report.checks.map { "✔ \($0.name)" }.joined(separator: "\n")
                    ))
            ]
        }
        let output = failedChecks.map { check in
            (["✘ \(check.name) (as expected)"]
                + check.assertions.filter { !$0.passed }.map { failure([$0]).body })
                .joined(separator: "\n")
        }
        return [TestCase(classname: classname, name: name, location: location, output: output.joined(separator: "\n"))]
    }

    /// A failure's message (the failing lines) and body (each line with its evidence).
    static func failure(_ failing: [AssertionResult]) -> (message: String, body: String) {
        let message = failing.map(\.text).joined(separator: "; ")
        let body = failing.map { ([$0.text] + $0.evidence).joined(separator: "\n  ") }.joined(separator: "\n")
        return (message, body)
    }

    /// XML text and attribute escaping: the review page's, which JUnit readers accept too.
    static func escape(_ text: String) -> String { ReviewPage.escape(text) }
}

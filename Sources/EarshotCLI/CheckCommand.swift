import EarshotAudio
import EarshotCore
import EarshotScript
import Foundation

/// `earshot check PATH...`: runs scenario scripts headlessly with real espeak-ng durations and judges them.
///
/// Prints each check as pass or fail with its evidence, then the findings (the cards' anti-patterns, found
/// whatever the checks say). Exit status: 0 when every check passes, 1 when any fails, 2 when a script is
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
            cards' anti-patterns with a rule id, an impact and the card to read.
            """,
        arguments: [ArgumentSpec("path", arity: .oneOrMore, help: "Scripts, folders or pattern names.")],
        options: [
            ScenarioInputs.profileOption,
            ReaderOptions.reader,
            VoiceOptions.voice,
            VoiceOptions.voices,
            .value("junit", valueName: "file.xml", help: "Also write the results as JUnit XML."),
            .flag("transcript", help: "Print each run's timeline as a transcript."),
            .flag("expect-variants", help: "Pass when every before script fails a check and every after passes."),
            .flag("quiet", short: "q", help: "Print only failing checks and the summary."),
        ],
        examples: [
            "check Scripts/",
            "check announcement-spam --transcript",
            "check --expect-variants --junit results.xml Scripts/",
            "check --profile switch-control Scripts/skeleton-noise/after-switch-control.earshot",
        ])

    public func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        let paths = try ScenarioInputs.scriptPaths(arguments.arguments("path"), context: context)
        let documents = try ScenarioInputs.parse(paths)
        let speech = try ScenarioInputs.speech(arguments, context: context, keepingAudio: false)
        let quiet = arguments.flag("quiet")
        let expectVariants = arguments.flag("expect-variants")
        var reports: [ScriptReport] = []
        for document in documents {
            let run = try ScenarioInputs.run(document, speech: speech, arguments: arguments)
            let report = ScriptReport(
                run: run, checks: CheckEvaluator(run: run).evaluate(),
                findings: FindingRules.findings(in: run.timeline))
            reports.append(report)
            context.writeOutput(report.text(quiet: quiet))
            if arguments.flag("transcript") { context.writeOutput(run.timeline.transcript() + "\n") }
        }
        if let junit = arguments.value("junit") {
            try AtomicFile.write(JUnitReport.xml(reports), to: junit)
        }
        let failedChecks = reports.flatMap(\.checks).filter { !$0.passed }.count
        let totalChecks = reports.flatMap(\.checks).count
        let unexpected = reports.filter { !$0.matchesVariant }
        context.print(
            "\(reports.count) script\(reports.count == 1 ? "" : "s"): \(totalChecks - failedChecks) of "
                + "\(totalChecks) checks pass")
        if expectVariants {
            for report in unexpected {
                context.printError(
                    "\(report.run.document.path): a \(report.run.document.header.variant.rawValue) script "
                        + (report.run.document.header.variant == .before
                            ? "must fail at least one check, and every check passed"
                            : "must pass every check"))
            }
            context.print(
                unexpected.isEmpty
                    ? "as expected: every before script fails a check and every after script passes all"
                    : "\(unexpected.count) script(s) did not behave as their variant says")
            return unexpected.isEmpty ? ExitCode.success : ExitCode.failure
        }
        return failedChecks == 0 ? ExitCode.success : ExitCode.failure
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
        return run.document.header.variant == .before ? !allPass : allPass
    }

    /// The report as the terminal shows it.
    public func text(quiet: Bool) -> String {
        let document = run.document
        var lines = [
            "\(document.path) — \(document.header.title) (\(document.header.variant.rawValue), "
                + "\(run.profile.label), voice \(run.voice.name))"
        ]
        for check in checks where !(quiet && check.passed) {
            lines.append("  \(check.passed ? "✔" : "✘") \(check.name)")
            for assertion in check.assertions {
                lines.append("      \(assertion.passed ? "✔" : "✘") \(assertion.text)  [\(assertion.location)]")
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
                        + "\(finding.rule) ×\(finding.occurrences) — read patterns/\(finding.card): \(finding.message)"
                        + (run.profile.reader == .voiceOver ? "" : " (under \(run.profile.reader.displayName))"))
            }
        }
        return lines.joined(separator: "\n") + "\n\n"
    }
}

/// JUnit XML for CI dashboards: one test suite per script, one test case per check.
public enum JUnitReport {
    /// The XML document.
    public static func xml(_ reports: [ScriptReport]) -> String {
        let failures = reports.flatMap(\.checks).filter { !$0.passed }.count
        let total = reports.flatMap(\.checks).count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"earshot check\" tests=\"\(total)\" failures=\"\(failures)\">\n"
        for report in reports {
            let document = report.run.document
            let failed = report.checks.filter { !$0.passed }.count
            xml +=
                "  <testsuite name=\"\(escape(document.path))\" tests=\"\(report.checks.count)\" failures=\"\(failed)\">\n"
            xml +=
                "    <properties><property name=\"variant\" value=\"\(document.header.variant.rawValue)\"/>"
                + "<property name=\"profile\" value=\"\(escape(report.run.profile.name))\"/></properties>\n"
            for check in report.checks {
                xml +=
                    "    <testcase classname=\"\(escape(document.header.pattern))\" name=\"\(escape(check.name))\""
                    + " file=\"\(escape(check.location.path))\" line=\"\(check.location.line)\""
                if check.passed {
                    xml += "/>\n"
                    continue
                }
                let failing = check.assertions.filter { !$0.passed }
                let message = failing.map(\.text).joined(separator: "; ")
                let body = failing.map { ([$0.text] + $0.evidence).joined(separator: "\n  ") }.joined(separator: "\n")
                xml += ">\n      <failure message=\"\(escape(message))\">\(escape(body))</failure>\n    </testcase>\n"
            }
            if !report.findings.isEmpty {
                let findings = report.findings.map { "\($0.impact.rawValue) \($0.rule): \($0.message)" }
                xml += "    <system-out>\(escape(findings.joined(separator: "\n")))</system-out>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    /// XML text and attribute escaping: the review page's, which JUnit readers accept too.
    static func escape(_ text: String) -> String { ReviewPage.escape(text) }
}

import EarshotCore
import EarshotScript

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
    public static func xml(_ reports: [RunReport], expectVariants: Bool = false) -> String {
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
    static func testCases(_ report: RunReport, expectVariants: Bool) -> [TestCase] {
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

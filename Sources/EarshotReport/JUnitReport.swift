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
        let body = suites.map { report, cases in Markup.spaces(2) + suite(report, cases) + .newline }
        let root = Markup.element(
            "testsuites", [("name", "earshot check"), ("tests", "\(total)"), ("failures", "\(failures)")],
            [.newline] + body)
        return (Markup.xmlDeclaration + root + .newline).rendered
    }

    /// One script's `testsuite` element.
    static func suite(_ report: RunReport, _ cases: [TestCase]) -> Markup {
        let document = report.run.document
        let failed = cases.filter { $0.failure != nil }.count
        let properties = Markup.element(
            "properties", [],
            [
                .empty("property", [("name", "variant"), ("value", document.header.variant.rawValue)]),
                .empty("property", [("name", "profile"), ("value", report.run.profile.name)]),
            ])
        var children: [Markup] = [.newline, .spaces(4), properties, .newline]
        for testCase in cases {
            children += [.spaces(4), element(testCase), .newline]
        }
        if !report.findings.isEmpty {
            let findings = report.findings.map { "\($0.impact.rawValue) \($0.rule): \($0.message)" }
            children += [
                .spaces(4), .element("system-out", [], [.text(findings.joined(separator: "\n"))]), .newline,
            ]
        }
        children.append(.spaces(2))
        return .element(
            "testsuite", [("name", document.path), ("tests", "\(cases.count)"), ("failures", "\(failed)")], children)
    }

    /// One `testcase` element: empty when it passed with nothing to say.
    static func element(_ testCase: TestCase) -> Markup {
        let attributes: [(String, String?)] = [
            ("classname", testCase.classname), ("name", testCase.name), ("file", testCase.location.path),
            ("line", "\(testCase.location.line)"),
        ]
        guard testCase.failure != nil || testCase.output != nil else { return .empty("testcase", attributes) }
        var children: [Markup] = [.newline]
        if let failure = testCase.failure {
            children += [
                .spaces(6), .element("failure", [("message", failure.message)], [.text(failure.body)]), .newline,
            ]
        }
        if let output = testCase.output {
            children += [.spaces(6), .element("system-out", [], [.text(output)]), .newline]
        }
        children.append(.spaces(4))
        return .element("testcase", attributes, children)
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
}

import EarshotCore
import EarshotScript

extension ReviewPage {
    /// The page header's facts: pattern, variant(s), profile, voice, what should sound different.
    static func headerDetails(_ runs: [Run]) -> Markup {
        let headers = runs.map(\.report.run.document.header)
        func distinct(_ values: [String]) -> [String] {
            values.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        }
        var rows: [(String, String)] = []
        rows.append(
            ("Pattern", distinct(headers.map { $0.pattern ?? "none (a rule scenario)" }).joined(separator: ", ")))
        rows.append(
            (
                runs.count > 1 ? "Variants" : "Variant",
                distinct(headers.map(\.variant.rawValue)).joined(separator: " → ")
            ))
        rows.append(("Profile", distinct(runs.map(\.report.run.profile.label)).joined(separator: ", ")))
        rows.append(("Voice", distinct(runs.map(\.report.run.voice.name)).joined(separator: ", ")))
        let different = distinct(headers.compactMap(\.saysDifferent))
        let titled = distinct(headers.map(\.title)).count > 1
        let facts = rows.map { term, value in
            Markup.element("div", [], [.element("dt", [], [.text(term)]), .element("dd", [], [.text(value)])])
                + .newline
        }
        var html = Markup.element("dl", [("class", "facts")], [.newline] + facts) + .newline
        if !different.isEmpty {
            let paragraphs = different.map { text in
                let title = headers.first { $0.saysDifferent == text }?.title ?? ""
                let lead = titled ? Markup.element("strong", [], [.text(title + ":")]) + .text(" ") : .none
                return Markup.element("p", [], [lead, .text(text)]) + .newline
            }
            html +=
                .element(
                    "section", [("class", "different"), ("aria-labelledby", "different-heading")],
                    [
                        .element("h2", [("id", "different-heading")], [.text("What should sound different")]),
                        .newline,
                    ] + paragraphs) + .newline
        }
        return html
    }

    /// One line per run: how many checks pass, how many findings.
    static func verdictSummary(_ runs: [Run]) -> Markup {
        guard !runs.isEmpty else { return .none }
        let items = runs.map { run in
            let checks = run.report.checks
            let passed = checks.filter(\.passed).count
            let findings = run.report.findings.count
            // The colour is the checks' verdict: findings are listed beside it, never turn a passing run red.
            let ok = passed == checks.count
            let verdict =
                "\(passed == checks.count ? "✔" : "✘") \(passed) of \(checks.count) check\(checks.count == 1 ? "" : "s") pass"
            return Markup.element(
                "li", [("class", ok ? "pass" : "fail")],
                [
                    .element("strong", [], [.text(run.label)]), .text(": "),
                    .element("span", [("class", "verdict")], [.text(verdict)]),
                    .text(", \(findings) finding\(findings == 1 ? "" : "s")"),
                ]) + .newline
        }
        return .element("ul", [("class", "verdicts")], [.newline] + items) + .newline
    }

    /// The colour key for the kinds of utterance and marks on the page.
    static func legend(_ runs: [Run]) -> Markup {
        let kinds = UtteranceKind.allCases.filter { kind in
            runs.contains { $0.report.run.timeline.utterances.contains { $0.utterance.kind == kind } }
        }
        func item(_ swatch: String, _ text: String) -> Markup {
            .element("li", [], [.element("span", [("class", "swatch \(swatch)")]), .text(text)])
        }
        var items = kinds.map { item("k-\($0.rawValue)", kindName($0)) }
        items.append(item("cut-swatch", "cut off (✂ names what cut it)"))
        items.append(item("dot-swatch", "never heard: dropped, or cut before its first word"))
        items.append(item("tick-swatch", "input or focus move"))
        items.append(item("hollow-swatch", "muted sound"))
        return .element(
            "ul", [("class", "legend"), ("aria-label", "Legend")],
            [.newline, items.joined(separator: .newline), .newline]) + .newline
    }

    /// One run's details: its facts, checks, findings and transcript.
    static func runSection(_ run: Run, index: Int) -> Markup {
        let report = run.report
        let header = report.run.document.header
        let heading = "run\(index + 1)-heading"
        func fact(_ term: String, _ value: Markup) -> Markup {
            .element("div", [], [.element("dt", [], [.text(term)]), .element("dd", [], [value])])
        }
        let facts = Markup.element(
            "dl", [("class", "facts")],
            [
                fact("Script", .element("code", [], [.text(report.run.document.path)])),
                fact("Variant", .text(header.variant.rawValue)), fact("Profile", .text(report.run.profile.label)),
                fact("Voice", .text(report.run.voice.name)),
            ])
        let transcriptID = "run\(index + 1)-transcript"
        let children: [Markup] = [
            .newline, .element("h2", [("id", heading)], [.text("\(run.label): \(header.title)")]), .newline,
            facts, .newline,
            checksList(report.checks, index: index),
            findingsTable(report.findings, index: index, checksPass: report.checks.allSatisfy(\.passed)),
            .element("h3", [("id", transcriptID)], [.text("Transcript")]), .newline,
            .element(
                "pre", [("class", "transcript"), ("tabindex", "0"), ("aria-labelledby", transcriptID)],
                [.text(report.run.timeline.transcript())]),
            .newline,
        ]
        return .element("section", [("class", "run"), ("aria-labelledby", heading)], children) + .newline
    }

    /// The checks with pass or fail; failing ones in red with their evidence.
    static func checksList(_ checks: [CheckResult], index: Int) -> Markup {
        let passed = checks.filter(\.passed).count
        let heading = Markup.element("h3", [], [.text("Checks: \(passed) of \(checks.count) pass")]) + .newline
        guard !checks.isEmpty else {
            return heading + .element("p", [("class", "note")], [.text("This script has no checks.")]) + .newline
        }
        let items = checks.map { check in
            let status = check.passed ? "pass" : "fail"
            let name = Markup.element(
                "p", [("class", "check-name")],
                [
                    .element("span", [("class", "verdict")], [.text(check.passed ? "✔ pass" : "✘ fail")]),
                    .text(" "), .element("strong", [], [.text(check.name)]), .text(" "),
                    .element("span", [("class", "where")], [.text(shortLocation(check.location))]),
                ])
            let assertions = check.assertions.map { assertion in
                var content: [Markup] = [
                    .element(
                        "span", [("class", "verdict"), ("aria-label", assertion.passed ? "passed" : "failed")],
                        [.text(assertion.passed ? "✔" : "✘")]),
                    .text(" "), .element("code", [], [.text(assertion.text)]),
                ]
                if !assertion.evidence.isEmpty {
                    content += [
                        .newline,
                        .element(
                            "ul", [("class", "evidence")], assertion.evidence.map { .element("li", [], [.text($0)]) }),
                    ]
                }
                return Markup.element("li", [("class", "assertion \(assertion.passed ? "pass" : "fail")")], content)
                    + .newline
            }
            return Markup.element(
                "li", [("class", "check \(status)")],
                [name, .newline, .element("ul", [("class", "assertions")], [.newline] + assertions), .newline])
                + .newline
        }
        return heading + .element("ul", [("class", "checks")], [.newline] + items) + .newline
    }

    /// `before-search.earshot:25:1`: the script's path is in the run's facts already.
    static func shortLocation(_ location: SourceLocation) -> String {
        let name = location.path.split(separator: "/").last.map(String.init) ?? location.path
        return "\(name):\(location.line):\(location.column)"
    }

    /// The findings, each highlighted: they are anti-patterns the cards name.
    /// Red when a check fails too; amber (a warning) when every check passes, so a passing run is never red.
    static func findingsTable(_ findings: [Finding], index: Int, checksPass: Bool = false) -> Markup {
        let heading = Markup.element("h3", [], [.text("Findings: \(findings.count)")]) + .newline
        guard !findings.isEmpty else {
            return heading + .element("p", [("class", "note ok")], [.text("No anti-patterns found.")]) + .newline
        }
        let columns = ["Impact", "Rule", "Times", "What happened"].map {
            Markup.element("th", [("scope", "col")], [.text($0)])
        }
        let rows = findings.map { finding in
            Markup.element(
                "tr", [("class", "finding \(checksPass ? "warn" : "severe") impact-\(finding.impact.rawValue)")],
                [
                    .element("td", [("class", "impact")], [.text(finding.impact.rawValue)]),
                    .element(
                        "td", [("class", "rule")],
                        [
                            .element("code", [], [.text(finding.rule)]), .empty("br"),
                            .element("span", [("class", "card")], [.text("read \(finding.page)")]),
                        ]),
                    .element("td", [("class", "times")], [.text("×\(finding.occurrences)")]),
                    .element("td", [], [.text("first at \(finding.at): \(finding.message)")]),
                ]) + .newline
        }
        return heading
            + .element(
                "table", [("class", "findings")],
                [
                    .newline, .element("thead", [], [.element("tr", [], columns)]), .newline,
                    .element("tbody", [], [.newline] + rows), .newline,
                ]) + .newline
    }
}

import EarshotCore
import EarshotScript

extension ReviewPage {
    /// The page header's facts: pattern, variant(s), profile, voice, what should sound different.
    static func headerDetails(_ runs: [Run]) -> String {
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
        var html = "<dl class=\"facts\">\n"
        for (term, value) in rows {
            html += "<div><dt>\(term)</dt><dd>\(escape(value))</dd></div>\n"
        }
        html += "</dl>\n"
        if !different.isEmpty {
            html +=
                "<section class=\"different\" aria-labelledby=\"different-heading\">"
                + "<h2 id=\"different-heading\">What should sound different</h2>\n"
                + different.map { text in
                    let title = headers.first { $0.saysDifferent == text }?.title ?? ""
                    return "<p>" + (titled ? "<strong>\(escape(title)):</strong> " : "") + "\(escape(text))</p>\n"
                }.joined() + "</section>\n"
        }
        return html
    }

    /// One line per run: how many checks pass, how many findings.
    static func verdictSummary(_ runs: [Run]) -> String {
        guard !runs.isEmpty else { return "" }
        var html = "<ul class=\"verdicts\">\n"
        for run in runs {
            let checks = run.report.checks
            let passed = checks.filter(\.passed).count
            let findings = run.report.findings.count
            // The colour is the checks' verdict: findings are listed beside it, never turn a passing run red.
            let ok = passed == checks.count
            html +=
                "<li class=\"\(ok ? "pass" : "fail")\"><strong>\(escape(run.label))</strong>: "
                + "<span class=\"verdict\">\(passed == checks.count ? "✔" : "✘") \(passed) of \(checks.count) "
                + "check\(checks.count == 1 ? "" : "s") pass</span>, "
                + "\(findings) finding\(findings == 1 ? "" : "s")</li>\n"
        }
        return html + "</ul>\n"
    }

    /// The colour key for the kinds of utterance and marks on the page.
    static func legend(_ runs: [Run]) -> String {
        let kinds = UtteranceKind.allCases.filter { kind in
            runs.contains { $0.report.run.timeline.utterances.contains { $0.utterance.kind == kind } }
        }
        var items = kinds.map { "<li><span class=\"swatch k-\($0.rawValue)\"></span>\(kindName($0))</li>" }
        items.append("<li><span class=\"swatch cut-swatch\"></span>cut off (✂ names what cut it)</li>")
        items.append(
            "<li><span class=\"swatch dot-swatch\"></span>never heard: dropped, or cut before its first word</li>")
        items.append("<li><span class=\"swatch tick-swatch\"></span>input or focus move</li>")
        items.append("<li><span class=\"swatch hollow-swatch\"></span>muted sound</li>")
        return "<ul class=\"legend\" aria-label=\"Legend\">\n" + items.joined(separator: "\n") + "\n</ul>\n"
    }

    /// One run's details: its facts, checks, findings and transcript.
    static func runSection(_ run: Run, index: Int) -> String {
        let report = run.report
        let header = report.run.document.header
        let heading = "run\(index + 1)-heading"
        var html =
            "<section class=\"run\" aria-labelledby=\"\(heading)\">\n"
            + "<h2 id=\"\(heading)\">\(escape(run.label)): \(escape(header.title))</h2>\n"
            + "<dl class=\"facts\">"
            + "<div><dt>Script</dt><dd><code>\(escape(report.run.document.path))</code></dd></div>"
            + "<div><dt>Variant</dt><dd>\(escape(header.variant.rawValue))</dd></div>"
            + "<div><dt>Profile</dt><dd>\(escape(report.run.profile.label))</dd></div>"
            + "<div><dt>Voice</dt><dd>\(escape(report.run.voice.name))</dd></div></dl>\n"
        html += checksList(report.checks, index: index)
        html += findingsTable(report.findings, index: index, checksPass: report.checks.allSatisfy(\.passed))
        html +=
            "<h3 id=\"run\(index + 1)-transcript\">Transcript</h3>\n"
            + "<pre class=\"transcript\" tabindex=\"0\" aria-labelledby=\"run\(index + 1)-transcript\">"
            + escape(report.run.timeline.transcript()) + "</pre>\n"
        return html + "</section>\n"
    }

    /// The checks with pass or fail; failing ones in red with their evidence.
    static func checksList(_ checks: [CheckResult], index: Int) -> String {
        let passed = checks.filter(\.passed).count
        var html = "<h3>Checks: \(passed) of \(checks.count) pass</h3>\n"
        guard !checks.isEmpty else { return html + "<p class=\"note\">This script has no checks.</p>\n" }
        html += "<ul class=\"checks\">\n"
        for check in checks {
            let status = check.passed ? "pass" : "fail"
            html +=
                "<li class=\"check \(status)\"><p class=\"check-name\"><span class=\"verdict\">"
                + (check.passed ? "✔ pass" : "✘ fail") + "</span> <strong>\(escape(check.name))</strong> "
                + "<span class=\"where\">\(escape(shortLocation(check.location)))</span></p>\n<ul class=\"assertions\">\n"
            for assertion in check.assertions {
                html +=
                    "<li class=\"assertion \(assertion.passed ? "pass" : "fail")\">"
                    + "<span class=\"verdict\" aria-label=\"\(assertion.passed ? "passed" : "failed")\">"
                    + (assertion.passed ? "✔" : "✘") + "</span> <code>\(escape(assertion.text))</code>"
                if !assertion.evidence.isEmpty {
                    html +=
                        "\n<ul class=\"evidence\">"
                        + assertion.evidence.map { "<li>\(escape($0))</li>" }.joined() + "</ul>"
                }
                html += "</li>\n"
            }
            html += "</ul>\n</li>\n"
        }
        return html + "</ul>\n"
    }

    /// `before-search.earshot:25:1`: the script's path is in the run's facts already.
    static func shortLocation(_ location: SourceLocation) -> String {
        let name = location.path.split(separator: "/").last.map(String.init) ?? location.path
        return "\(name):\(location.line):\(location.column)"
    }

    /// The findings, each highlighted: they are anti-patterns the cards name.
    /// Red when a check fails too; amber (a warning) when every check passes, so a passing run is never red.
    static func findingsTable(_ findings: [Finding], index: Int, checksPass: Bool = false) -> String {
        var html = "<h3>Findings: \(findings.count)</h3>\n"
        guard !findings.isEmpty else { return html + "<p class=\"note ok\">No anti-patterns found.</p>\n" }
        html +=
            "<table class=\"findings\">\n<thead><tr><th scope=\"col\">Impact</th><th scope=\"col\">Rule</th>"
            + "<th scope=\"col\">Times</th><th scope=\"col\">What happened</th></tr></thead>\n<tbody>\n"
        for finding in findings {
            html +=
                "<tr class=\"finding \(checksPass ? "warn" : "severe") impact-\(finding.impact.rawValue)\">"
                + "<td class=\"impact\">\(finding.impact.rawValue)</td>"
                + "<td class=\"rule\"><code>\(escape(finding.rule))</code>"
                + "<br/><span class=\"card\">read \(escape(finding.page))</span></td>"
                + "<td class=\"times\">×\(finding.occurrences)</td>"
                + "<td>first at \(finding.at): \(escape(finding.message))</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }
}

import EarshotCore
import EarshotScript

extension RunReport {
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

import EarshotScript

extension CheckReport {
    /// The last line of the text report: `24 scripts: 26 of 50 checks pass; 1 transcript changed`.
    public var summaryLine: String {
        let total = checks.count
        let changed = changedTranscripts.count
        let transcripts = changed == 0 ? "" : "; \(changed) transcript\(changed == 1 ? "" : "s") changed"
        return "\(scripts.count) script\(scripts.count == 1 ? "" : "s"): \(total - failedChecks) of "
            + "\(total) checks pass\(transcripts)"
    }

    /// With `--expect-variants`: whether every script behaved as its variant says.
    public var variantsLine: String {
        let unexpected = unexpectedVariants.count
        return unexpected == 0
            ? "as expected: every before script fails a check and every after script passes all"
            : "\(unexpected) script(s) did not behave as their variant says"
    }

    /// What a script that did not behave as its variant says should have done, naming the script.
    public static func variantProblem(_ script: Script) -> String {
        let document = script.report.run.document
        return "\(document.path): a \(document.header.variant.rawValue) script "
            + (document.header.variant == .before
                ? "must fail at least one check, and every check passed" : "must pass every check")
    }
}

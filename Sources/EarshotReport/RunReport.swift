import EarshotCore
import EarshotScript

/// One script run's report: the run with its timeline, its checks' verdicts and its findings.
///
/// Made once per run (``init(run:)`` evaluates the checks and finds the findings); the terminal text, JSON,
/// SARIF, JUnit and the review page all render from it and never judge the run again.
public struct RunReport: Sendable {
    /// The run.
    public var run: ScenarioRun
    /// The checks' verdicts.
    public var checks: [CheckResult]
    /// The findings.
    public var findings: [Finding]

    /// Judges `run`: evaluates its checks and finds the anti-patterns in its timeline.
    public init(run: ScenarioRun) {
        self.init(
            run: run, checks: CheckEvaluator(run: run).evaluate(), findings: FindingRules.findings(in: run.timeline))
    }

    /// A report of verdicts and findings made elsewhere.
    public init(run: ScenarioRun, checks: [CheckResult], findings: [Finding]) {
        self.run = run
        self.checks = checks
        self.findings = findings
    }

    /// The run's timeline.
    public var timeline: Timeline { run.timeline }

    /// True when a before script failed a check or an after script passed them all.
    public var matchesVariant: Bool {
        let allPass = checks.allSatisfy(\.passed)
        return run.document.header.variant == .before ? !allPass : allPass  // after and standalone: all pass
    }
}

import EarshotCore
import EarshotScript

/// Everything `earshot check` found, computed once and rendered by each output: the terminal text, JSON
/// (`--format json`), SARIF (`--sarif`) and the golden-transcript verdicts.
public struct CheckReport: Sendable {
    /// One script's run, verdicts, findings, and what its golden transcript says.
    public struct Script: Sendable {
        /// The run with its checks and findings.
        public var report: RunReport
        /// Where each finding points in the script, in the order of `report.findings`.
        public var findingLocations: [SourceLocation]
        /// The timeline in numbers.
        public var summary: TimelineSummary
        /// The golden transcript's verdict (`.none` when the script has none and none was recorded).
        public var golden: GoldenTranscript.Verdict
    }

    /// How many utterances a run produced and what became of them.
    public struct TimelineSummary: Sendable, Equatable {
        /// When the run ended, in seconds.
        public var end: Double
        /// Every utterance requested.
        public var utterances: Int
        /// Spoken to the end.
        public var spoken: Int
        /// Cut while speaking.
        public var interrupted: Int
        /// Never started.
        public var dropped: Int
        /// Seconds of speech the listener heard (spoken, and cut speech up to the cut).
        public var heardSeconds: Double

        /// The numbers for a timeline.
        public init(_ timeline: Timeline) {
            end = timeline.end.seconds
            utterances = timeline.utterances.count
            var spoken = 0
            var interrupted = 0
            var dropped = 0
            var heard = 0.0
            for record in timeline.utterances {
                switch record.outcome {
                case .spoken(let start, let stop):
                    spoken += 1
                    heard += (stop - start).seconds
                case .interrupted(let start, let cut, _):
                    interrupted += 1
                    heard += (cut - start).seconds
                case .dropped: dropped += 1
                case .pending, .speaking: break
                }
            }
            self.spoken = spoken
            self.interrupted = interrupted
            self.dropped = dropped
            heardSeconds = heard
        }
    }

    /// The scripts, in the order they were given.
    public var scripts: [Script]

    /// Builds the report for runs already judged.
    public init(_ reports: [RunReport], golden: [GoldenTranscript.Verdict]? = nil) {
        scripts = reports.enumerated().map { index, report in
            Script(
                report: report,
                findingLocations: report.findings.map { Self.location(of: $0, in: report.run.document) },
                summary: TimelineSummary(report.run.timeline),
                golden: golden.map { $0.indices.contains(index) ? $0[index] : .none } ?? .none)
        }
    }

    /// Every check verdict.
    public var checks: [CheckResult] { scripts.flatMap(\.report.checks) }

    /// How many checks failed.
    public var failedChecks: Int { checks.filter { !$0.passed }.count }

    /// Scripts whose golden transcript no longer matches the run.
    public var changedTranscripts: [Script] { scripts.filter { $0.golden.isChanged } }

    /// Scripts that did not behave as their variant says (a before that passed, an after that failed).
    public var unexpectedVariants: [Script] { scripts.filter { !$0.report.matchesVariant } }

    /// The script line a finding points at: the last timed line (or repetition of one) that happened at or
    /// before the finding's first occurrence, since that is what made the app or the user act; the header
    /// when nothing happened before it.
    public static func location(of finding: Finding, in document: ScenarioDocument) -> SourceLocation {
        var best: (time: Instant, location: SourceLocation)?
        for event in document.timeline {
            var times = [event.time]
            if let repetition = event.repetition, repetition.count > 0 {
                times += (1...repetition.count).map { event.time + repetition.interval * $0 }
            }
            for time in times where time <= finding.at {
                if best.map({ time >= $0.time }) ?? true { best = (time, event.location) }
            }
        }
        return best?.location ?? document.header.location
    }
}

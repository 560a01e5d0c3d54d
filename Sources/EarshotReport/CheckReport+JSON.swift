import EarshotCore
import EarshotScript

extension CheckReport {
    /// The version of the JSON document's shape; `docs/check-report.schema.json` describes it.
    public static let jsonFormatVersion = 1

    /// `check --format json`: one document with every script, its checks with their evidence, its findings
    /// and a summary of its timeline, then the totals.
    public func json() -> JSONValue {
        .object([
            ("format", .string("earshot-check")),
            ("version", .integer(Self.jsonFormatVersion)),
            ("tool", .object([("name", .string("earshot")), ("version", .string(ToolVersion.current))])),
            ("scripts", .array(scripts.map(Self.json))),
            (
                "summary",
                .object([
                    ("scripts", .integer(scripts.count)),
                    ("checks", .integer(checks.count)),
                    ("passedChecks", .integer(checks.count - failedChecks)),
                    ("failedChecks", .integer(failedChecks)),
                    ("findings", .integer(scripts.map(\.report.findings.count).reduce(0, +))),
                    ("unexpectedVariants", .integer(unexpectedVariants.count)),
                    ("changedTranscripts", .integer(changedTranscripts.count)),
                ])
            ),
        ])
    }

    /// The repository page about a script's pattern card; `nil` for a standalone or custom pattern.
    static func patternPage(_ pattern: String?) -> String? {
        guard let pattern, ScenarioHeader.knownPatterns.contains(pattern) else { return nil }
        return FindingRules.page(forPattern: pattern)
    }

    static func json(_ script: Script) -> JSONValue {
        let report = script.report
        let document = report.run.document
        return .object([
            ("path", .string(document.path)),
            ("title", .string(document.header.title)),
            ("pattern", document.header.pattern.map(JSONValue.string) ?? .null),
            ("patternPage", patternPage(document.header.pattern).map(JSONValue.string) ?? .null),
            ("variant", .string(document.header.variant.rawValue)),
            ("profile", .string(report.run.profile.name)),
            ("voice", .string(report.run.voice.name)),
            ("passed", .bool(report.checks.allSatisfy(\.passed))),
            ("matchesVariant", .bool(report.matchesVariant)),
            ("checks", .array(report.checks.map(json))),
            ("findings", .array(zip(report.findings, script.findingLocations).map(json))),
            (
                "timeline",
                .object([
                    ("end", .seconds(script.summary.end)),
                    ("utterances", .integer(script.summary.utterances)),
                    ("spoken", .integer(script.summary.spoken)),
                    ("interrupted", .integer(script.summary.interrupted)),
                    ("dropped", .integer(script.summary.dropped)),
                    ("heardSeconds", .seconds(script.summary.heardSeconds)),
                ])
            ),
            ("transcript", json(script.golden)),
        ])
    }

    static func json(_ check: CheckResult) -> JSONValue {
        .object([
            ("name", .string(check.name)),
            ("location", json(check.location)),
            ("passed", .bool(check.passed)),
            (
                "assertions",
                .array(
                    check.assertions.map { assertion in
                        .object([
                            ("text", .string(assertion.text)),
                            ("location", json(assertion.location)),
                            ("passed", .bool(assertion.passed)),
                            ("evidence", .array(assertion.evidence.map(JSONValue.string))),
                        ])
                    })
            ),
        ])
    }

    static func json(_ finding: Finding, at location: SourceLocation) -> JSONValue {
        .object([
            ("rule", .string(finding.rule)),
            ("impact", .string(finding.impact.rawValue)),
            ("pattern", .string(finding.card)),
            ("page", .string(finding.page)),
            ("at", .seconds(finding.at.seconds)),
            ("occurrences", .integer(finding.occurrences)),
            ("message", .string(finding.message)),
            ("location", json(location)),
        ])
    }

    static func json(_ location: SourceLocation) -> JSONValue {
        .object([
            ("path", .string(location.path)), ("line", .integer(location.line)), ("column", .integer(location.column)),
        ])
    }

    static func json(_ verdict: GoldenTranscript.Verdict) -> JSONValue {
        switch verdict {
        case .none: return .object([("status", .string("none"))])
        case .matched(let path): return .object([("status", .string("matched")), ("path", .string(path))])
        case .changed(let path, let diff):
            return .object([("status", .string("changed")), ("path", .string(path)), ("diff", .string(diff))])
        case .written(let path, let replaced):
            return .object([("status", .string(replaced ? "updated" : "recorded")), ("path", .string(path))])
        }
    }
}

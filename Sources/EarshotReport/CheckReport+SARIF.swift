import EarshotCore
import EarshotScript
import Foundation

extension CheckReport {
    /// The SARIF version `--sarif` writes.
    public static let sarifVersion = "2.1.0"

    /// The rule id of a failed check, next to the findings' rule ids.
    public static let failedCheckRule = "failed-check"

    /// `check --sarif FILE`: SARIF 2.1.0 for code-scanning tools. Each finding is a result at the script line
    /// that led to it (see ``location(of:in:)``), and each failed assertion a `failed-check` result at its
    /// line; every finding rule is listed with its impact and its pattern page.
    public func sarif(currentDirectory: String = FileManager.default.currentDirectoryPath) -> JSONValue {
        let rules = FindingRules.all
        var results: [JSONValue] = []
        for script in scripts {
            for (finding, location) in zip(script.report.findings, script.findingLocations) {
                let index = rules.firstIndex { $0.id == finding.rule }
                results.append(
                    .object(
                        [
                            ("ruleId", .string(finding.rule)),
                            ("ruleIndex", index.map(JSONValue.integer) ?? .null),
                            ("level", .string(Self.sarifLevel(finding.impact))),
                            (
                                "message",
                                .object([
                                    (
                                        "text",
                                        .string(
                                            "\(finding.message) (×\(finding.occurrences); read \(finding.page))")
                                    )
                                ])
                            ),
                            ("locations", .array([Self.sarifLocation(location, currentDirectory: currentDirectory)])),
                            (
                                "properties",
                                .object([
                                    ("impact", .string(finding.impact.rawValue)),
                                    ("pattern", .string(finding.card)),
                                    ("at", .seconds(finding.at.seconds)),
                                    ("occurrences", .integer(finding.occurrences)),
                                ])
                            ),
                        ].filter { $0.1 != .null }))
            }
            for check in script.report.checks {
                for assertion in check.assertions where !assertion.passed {
                    let evidence = assertion.evidence.isEmpty ? "" : ": " + assertion.evidence.joined(separator: "; ")
                    results.append(
                        .object([
                            ("ruleId", .string(Self.failedCheckRule)),
                            ("ruleIndex", .integer(rules.count)),
                            ("level", .string("error")),
                            (
                                "message",
                                .object([
                                    ("text", .string("check \"\(check.name)\" failed: \(assertion.text)\(evidence)"))
                                ])
                            ),
                            (
                                "locations",
                                .array([Self.sarifLocation(assertion.location, currentDirectory: currentDirectory)])
                            ),
                        ]))
                }
            }
        }
        let descriptors =
            rules.map { rule in
                JSONValue.object([
                    ("id", .string(rule.id)),
                    ("shortDescription", .object([("text", .string(rule.summary))])),
                    (
                        "help",
                        .object([("text", .string("Read \(rule.page) for the pattern, its fix and its checks."))])
                    ),
                    ("defaultConfiguration", .object([("level", .string(Self.sarifLevel(rule.impact)))])),
                    (
                        "properties",
                        .object([("impact", .string(rule.impact.rawValue)), ("pattern", .string(rule.card))])
                    ),
                ])
            } + [
                .object([
                    ("id", .string(Self.failedCheckRule)),
                    (
                        "shortDescription",
                        .object([("text", .string("an assertion in a script's check block does not hold"))])
                    ),
                    (
                        "help",
                        .object([("text", .string("Read docs/scenario-format.md for what each assertion means."))])
                    ),
                    ("defaultConfiguration", .object([("level", .string("error"))])),
                ])
            ]
        return .object([
            (
                "$schema",
                .string("https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json")
            ),
            ("version", .string(Self.sarifVersion)),
            (
                "runs",
                .array([
                    .object([
                        (
                            "tool",
                            .object([
                                (
                                    "driver",
                                    .object([
                                        ("name", .string("earshot")),
                                        ("version", .string(ToolVersion.current)),
                                        ("rules", .array(descriptors)),
                                    ])
                                )
                            ])
                        ),
                        (
                            "originalUriBaseIds",
                            .object([
                                ("SRCROOT", .object([("uri", .string(Self.fileURI(directory: currentDirectory)))]))
                            ])
                        ),
                        ("results", .array(results)),
                    ])
                ])
            ),
        ])
    }

    /// SARIF's levels for the impacts: serious and critical are errors, moderate a warning, minor a note.
    static func sarifLevel(_ impact: Impact) -> String {
        switch impact {
        case .critical, .serious: return "error"
        case .moderate: return "warning"
        case .minor: return "note"
        }
    }

    /// A result location: a relative script path stays relative to `SRCROOT` (the folder check ran in), so
    /// code-scanning tools place it in the repository; an absolute path becomes a `file://` URI.
    static func sarifLocation(_ location: SourceLocation, currentDirectory: String) -> JSONValue {
        var artifact: [(String, JSONValue)]
        if location.path.hasPrefix("/") {
            artifact = [("uri", .string(URL(fileURLWithPath: location.path).absoluteString))]
        } else {
            let relative = location.path.hasPrefix("./") ? String(location.path.dropFirst(2)) : location.path
            artifact = [
                ("uri", .string(relative.addingPercentEncoding(withAllowedCharacters: uriPathCharacters) ?? relative)),
                ("uriBaseId", .string("SRCROOT")),
            ]
        }
        return .object([
            (
                "physicalLocation",
                .object([
                    ("artifactLocation", .object(artifact)),
                    (
                        "region",
                        .object([("startLine", .integer(location.line)), ("startColumn", .integer(location.column))])
                    ),
                ])
            )
        ])
    }

    /// The folder as a `file://` URI ending in a slash, as SARIF's base URIs must.
    static func fileURI(directory: String) -> String {
        let uri = URL(fileURLWithPath: directory, isDirectory: true).absoluteString
        return uri.hasSuffix("/") ? uri : uri + "/"
    }

    /// Characters a relative URI path keeps as they are.
    static let uriPathCharacters: CharacterSet = {
        var characters = CharacterSet.urlPathAllowed
        characters.remove(charactersIn: ":")
        return characters
    }()
}

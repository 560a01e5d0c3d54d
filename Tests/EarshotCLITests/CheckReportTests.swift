import Foundation
import Testing

@testable import EarshotCLI
@testable import EarshotReport

/// `check --format json` against docs/check-report.schema.json, and `--sarif` against the official SARIF 2.1.0
/// schema, both with a real validator; each schema also rejects a broken document, so the tests can fail.
@Suite struct CheckReportTests {
    static let spam = packageRoot + "/Scripts/announcement-spam"

    /// Runs check in a fresh folder on a before and an after script, copied there so paths are relative.
    func runCheck(_ options: [String], in folder: OutputFolder) throws -> RunResult {
        for name in ["before-search.earshot", "after-search.earshot"] {
            try FileManager.default.copyItem(atPath: Self.spam + "/" + name, toPath: folder.path + "/" + name)
        }
        return try EarshotBinary.run(
            ["check"] + options + ["before-search.earshot", "after-search.earshot"], in: folder.path)
    }

    @Test func jsonOutputIsOneDocumentThatValidatesAgainstTheShippedSchema() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let result = try runCheck(["--format", "json"], in: folder)
        #expect(result.status == 1, "the before script fails its checks")
        let path = folder.path + "/report.json"
        try result.output.write(toFile: path, atomically: true, encoding: .utf8)
        let verdict = try SchemaValidation.validate(path, against: SchemaValidation.checkReport)
        #expect(verdict.isValid, "\(verdict.messages)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let scripts = try #require(document["scripts"] as? [[String: Any]])
        #expect(scripts.map { $0["variant"] as? String } == ["before", "after"])
        let summary = try #require(document["summary"] as? [String: Int])
        let checks = scripts.flatMap { $0["checks"] as? [[String: Any]] ?? [] }
        #expect(summary["checks"] == checks.count)
        #expect(summary["failedChecks"] == checks.filter { $0["passed"] as? Bool == false }.count)
        #expect(summary["failedChecks"] ?? 0 > 0)
        let findings = scripts[0]["findings"] as? [[String: Any]] ?? []
        #expect(findings.contains { $0["rule"] as? String == "announcement-while-typing" })
        #expect(!result.output.contains("scripts:"), "no text summary mixed into the JSON")
    }

    @Test func everyShippedScriptsJSONAndSARIFValidate() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let result = try EarshotBinary.run(
            ["check", "--format", "json", "--sarif", folder.path + "/all.sarif", "Scripts/"], in: packageRoot)
        #expect(result.status == 1, "the before scripts fail")
        try result.output.write(toFile: folder.path + "/all.json", atomically: true, encoding: .utf8)
        let json = try SchemaValidation.validate(folder.path + "/all.json", against: SchemaValidation.checkReport)
        #expect(json.isValid, "\(json.messages)")
        let sarif = try SchemaValidation.validate(folder.path + "/all.sarif", against: SchemaValidation.sarif)
        #expect(sarif.isValid, "\(sarif.messages)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect((document["scripts"] as? [Any])?.count == 24)
    }

    @Test(arguments: [
        ("summary", "a missing member"),
        ("variant", "a variant that is neither before nor after"),
        ("extra", "a member the schema does not know"),
    ])
    func theReportSchemaRejectsABrokenDocument(change: String, what: String) throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let result = try runCheck(["--format", "json"], in: folder)
        var document = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        switch change {
        case "summary": document["summary"] = nil
        case "variant":
            var scripts = try #require(document["scripts"] as? [[String: Any]])
            scripts[0]["variant"] = "sideways"
            document["scripts"] = scripts
        default: document[change] = true
        }
        let verdict = try SchemaValidation.validate(
            object: document, in: folder.path, against: SchemaValidation.checkReport)
        #expect(verdict.status == 1, "\(what) must be rejected: \(verdict.messages)")
    }

    @Test func sarifValidatesAgainstTheOfficialSchemaAndPointsAtScriptLines() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let result = try runCheck(["--quiet", "--sarif", "findings.sarif"], in: folder)
        #expect(result.status == 1)
        let path = folder.path + "/findings.sarif"
        let verdict = try SchemaValidation.validate(path, against: SchemaValidation.sarif)
        #expect(verdict.isValid, "\(verdict.messages)")
        let sarif = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        #expect(sarif["version"] as? String == "2.1.0")
        let run = try #require((sarif["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        let source = try String(contentsOfFile: folder.path + "/before-search.earshot", encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        var sawFinding = false
        var sawFailedCheck = false
        for result in results {
            let location = try #require(
                ((result["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any])
            let artifact = try #require(location["artifactLocation"] as? [String: Any])
            let line = try #require((location["region"] as? [String: Any])?["startLine"] as? Int)
            #expect(artifact["uriBaseId"] as? String == "SRCROOT")
            #expect(artifact["uri"] as? String == "before-search.earshot", "the after script has no results")
            let text = source[line - 1].trimmingCharacters(in: .whitespaces)
            if result["ruleId"] as? String == "failed-check" {
                sawFailedCheck = true
                let message = ((result["message"] as? [String: Any])?["text"] as? String) ?? ""
                #expect(message.contains(text), "a failed check points at its assertion line: \(text)")
            } else {
                sawFinding = true
                #expect(text.hasPrefix("at ") || text.hasPrefix("+"), "a finding points at a timed line: \(text)")
            }
        }
        #expect(sawFinding && sawFailedCheck)
    }

    @Test func theSarifSchemaRejectsAResultWithoutAMessage() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        _ = try runCheck(["--quiet", "--sarif", "findings.sarif"], in: folder)
        var sarif = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: folder.path + "/findings.sarif"))) as? [String: Any])
        var runs = try #require(sarif["runs"] as? [[String: Any]])
        var results = try #require(runs[0]["results"] as? [[String: Any]])
        results[0]["message"] = nil
        runs[0]["results"] = results
        sarif["runs"] = runs
        let verdict = try SchemaValidation.validate(object: sarif, in: folder.path, against: SchemaValidation.sarif)
        #expect(verdict.status == 1, "\(verdict.messages)")
    }

    @Test(arguments: [
        (["--format", "xml"], "--format xml: unknown format"),
        (["--record", "--update"], "--record and --update cannot be combined"),
        (["--sarif", "no-such-folder/out.sarif"], "the folder no-such-folder does not exist"),
        (["--sarif", "after-search.earshot/out.sarif"], "after-search.earshot is a file, not a folder"),
        (["--junit", "no-such-folder/out.xml"], "--junit no-such-folder/out.xml: the folder no-such-folder"),
        (["--junit", "."], "--junit .: is a folder"),
    ])
    func badOutputOptionsAreUsageErrorsAndWriteNothing(options: [String], message: String) throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let result = try runCheck(options, in: folder)
        #expect(result.status == 64)
        #expect(result.error.contains(message), "\(result.error)")
        #expect(folder.contents == ["after-search.earshot", "before-search.earshot"])
    }
}

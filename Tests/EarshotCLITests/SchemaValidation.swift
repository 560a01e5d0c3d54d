import Foundation

/// Validates JSON files against a JSON Schema with Python's `jsonschema` (installed by `make deps`), through
/// `Tests/Schemas/validate.py`.
enum SchemaValidation {
    /// The folder of vendored schemas and the validator.
    static let schemas = packageRoot + "/Tests/Schemas"
    /// The official SARIF 2.1.0 schema.
    static let sarif = schemas + "/sarif-schema-2.1.0.json"
    /// `check --format json`'s schema, shipped in docs/.
    static let checkReport = packageRoot + "/docs/check-report.schema.json"

    /// The validator's verdict: its exit status (0 valid, 1 invalid, 2 unusable) and its messages.
    struct Verdict {
        var status: Int32
        var messages: String
        var isValid: Bool { status == 0 }
    }

    /// Validates the document in `path` against `schema`.
    static func validate(_ path: String, against schema: String) throws -> Verdict {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", schemas + "/validate.py", schema, path]
        let errors = path + ".validation"
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        process.standardError = handle
        process.standardOutput = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        defer { try? FileManager.default.removeItem(atPath: errors) }
        return Verdict(status: process.terminationStatus, messages: try String(contentsOfFile: errors, encoding: .utf8))
    }

    /// Validates a document given as a JSON object, written to a file in `folder` first.
    static func validate(object: Any, in folder: String, against schema: String) throws -> Verdict {
        let path = folder + "/document-" + UUID().uuidString + ".json"
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        return try validate(path, against: schema)
    }
}

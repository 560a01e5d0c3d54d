import EarshotAudio
import EarshotCore
import EarshotReport
import EarshotScript
import Foundation

/// What `earshot check` writes besides its verdicts' status: the format on standard output, a SARIF file,
/// and what to do with golden transcripts. Read once from the command line, validated before any script runs.
public struct CheckOutputs: Sendable {
    /// The format of standard output.
    public enum Format: String, Sendable, CaseIterable {
        /// The human report (colour on a terminal).
        case text
        /// One JSON document (`docs/check-report.schema.json`).
        case json
    }

    /// `--format text|json`.
    public static let formatOption = OptionSpec.value(
        "format", valueName: "text|json",
        help: "Standard output as text (default) or one JSON document (schema: docs/check-report.schema.json).")
    /// `--sarif FILE`.
    public static let sarifOption = OptionSpec.value(
        "sarif", valueName: "file.sarif", help: "Also write findings and failed checks as SARIF 2.1.0.")
    /// `--record`.
    public static let recordOption = OptionSpec.flag(
        "record", help: "Write NAME.transcript next to each script that has none; compare the others.")
    /// `--update`.
    public static let updateOption = OptionSpec.flag(
        "update", help: "Rewrite every NAME.transcript that changed (accept the new timelines).")

    /// Every option this type reads, for the command's signature.
    public static let options = [formatOption, sarifOption, recordOption, updateOption]

    /// The format of standard output.
    public var format: Format
    /// Where to write SARIF, if anywhere.
    public var sarifPath: String?
    /// What to do with golden transcripts.
    public var golden: GoldenTranscript.Mode

    /// Reads and validates the options.
    ///
    /// - Throws: `UsageError` for an unknown format, `--record` with `--update`, or a SARIF or JUnit path that is
    ///   a folder or lies in a folder that does not exist.
    public init(_ arguments: ParsedArguments) throws {
        let word = arguments.value(Self.formatOption.long) ?? Format.text.rawValue
        guard let format = Format(rawValue: word) else {
            throw UsageError(
                "--format \(word): unknown format; formats: \(Format.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self.format = format
        if arguments.flag(Self.recordOption.long), arguments.flag(Self.updateOption.long) {
            throw UsageError("--record and --update cannot be combined (--update also writes missing transcripts)")
        }
        golden =
            arguments.flag(Self.updateOption.long)
            ? .update : arguments.flag(Self.recordOption.long) ? .record : .compare
        sarifPath = arguments.value(Self.sarifOption.long)
        // Report files are checked before the run, not found unwritable after it.
        for option in ["sarif", "junit"] {
            if let path = arguments.value(option) { try Self.checkReportPath(path, option: option) }
        }
    }

    /// Refuses a report path that is a folder or lies in a folder that does not exist (or is a file).
    static func checkReportPath(_ path: String, option: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw UsageError("--\(option) \(path): is a folder; give a file name")
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, !FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory) {
            throw UsageError("--\(option) \(path): the folder \(parent) does not exist")
        }
        if !parent.isEmpty, !isDirectory.boolValue {
            throw UsageError("--\(option) \(path): \(parent) is a file, not a folder")
        }
    }

    /// True when standard output carries the human report.
    public var printsText: Bool { format == .text }

    /// Compares or records one run's transcript.
    ///
    /// - Throws: when a transcript file cannot be written.
    public func goldenVerdict(for run: ScenarioRun) throws -> GoldenTranscript.Verdict {
        try GoldenTranscript.verdict(script: run.document.path, transcript: { run.timeline.transcript() }, mode: golden)
    }

    /// Writes the outputs that follow the whole run: the JSON document on standard output and the SARIF file
    /// (through `write(text, path)`).
    ///
    /// - Throws: `OutputFileError` when the SARIF file cannot be written (no partial file is left).
    public func finish(
        _ report: CheckReport, context: CommandContext,
        write: (String, String) throws -> Void = { try AtomicFile.write($0, to: $1) }
    ) throws {
        if let sarifPath {
            try write(report.sarif().rendered(), sarifPath)
        }
        if format == .json { context.writeOutput(report.json().rendered()) }
    }
}

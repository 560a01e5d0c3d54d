import EarshotAudio
import EarshotCore
import Foundation

/// Golden transcripts, like snapshot tests: `check --record` keeps each script's transcript in
/// `NAME.transcript` next to `NAME.earshot`, and later checks compare the run against it.
///
/// - A script without a transcript file is not compared.
/// - `--record` writes a transcript for every script that has none yet and compares the others.
/// - `--update` rewrites every transcript that changed (and writes missing ones): the way to accept a change.
public enum GoldenTranscript {
    /// The file extension of a golden transcript.
    public static let fileExtension = "transcript"

    /// What became of one script's golden transcript.
    public enum Verdict: Sendable, Equatable {
        /// The script has no transcript file and none was written.
        case none
        /// The run matches the file.
        case matched(path: String)
        /// The run differs from the file: the diff, recorded first and this run second.
        case changed(path: String, diff: String)
        /// The file was written by `--record` or `--update`.
        case written(path: String, replaced: Bool)

        /// True when the run no longer matches the recorded transcript.
        public var isChanged: Bool {
            if case .changed = self { return true }
            return false
        }

        /// The transcript file's path, when there is one.
        public var path: String? {
            switch self {
            case .none: return nil
            case .matched(let path), .changed(let path, _), .written(let path, _): return path
            }
        }
    }

    /// What `check` does with golden transcripts.
    public enum Mode: Sendable, Equatable {
        /// Compare scripts that have a transcript file.
        case compare
        /// Write missing transcripts, compare the rest.
        case record
        /// Write missing and changed transcripts.
        case update
    }

    /// `Scripts/x/before.earshot` → `Scripts/x/before.transcript`: the script's name without its extension
    /// (``PathText/stem(_:)``), in the script's folder.
    ///
    /// Worked out on the text (a file URL asks the file system whether the path is a folder): a check asks for it
    /// three times per script.
    public static func path(forScript script: String) -> String {
        let stem = PathText.stem(script)
        guard let slash = script.lastIndex(of: "/") else { return stem + "." + fileExtension }
        return script[...slash] + stem + "." + fileExtension
    }

    /// Compares (and in `record`/`update` mode writes) one script's transcript. The transcript is made only when
    /// it is needed: a script without a recorded transcript is compared with nothing.
    ///
    /// - Throws: `OutputFileError` when a transcript cannot be written (the old file, if any, is left whole).
    public static func verdict(script: String, transcript makeTranscript: () -> String, mode: Mode) throws -> Verdict {
        let file = path(forScript: script)
        guard let recorded = try? String(contentsOfFile: file, encoding: .utf8) else {
            guard mode != .compare else { return .none }
            let transcript = makeTranscript()
            try AtomicFile.write(transcript, to: file)
            return .written(path: file, replaced: false)
        }
        let transcript = makeTranscript()
        if recorded == transcript { return .matched(path: file) }
        if mode == .update {
            try AtomicFile.write(transcript, to: file)
            return .written(path: file, replaced: true)
        }
        return .changed(
            path: file,
            diff: LineDiff.unified(
                old: recorded, new: transcript, oldName: file + " (recorded)", newName: script + " (this run)"))
    }
}

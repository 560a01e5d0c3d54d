import EarshotScript
import EarshotSystem
import Foundation

/// `--watch` for `check` and `listen`: run, then run again each time a script or voice file is saved,
/// clearing the screen first on a terminal. Ctrl-C ends it.
public enum CheckWatch {
    /// `--watch`.
    public static let option = OptionSpec.flag(
        "watch", help: "Run again whenever a script or voice file is saved (Ctrl-C stops).")

    /// The environment variable that ends the loop after this many runs (for tests and scripted demos).
    public static let runLimitVariable = "EARSHOT_WATCH_RUNS"

    /// The folders to watch for a command line: each script's folder (every folder under a folder argument)
    /// and the Voices folder with its variants, sorted.
    public static func folders(_ arguments: ParsedArguments, paths: [String], context: CommandContext) -> [String] {
        var folders: Set<String> = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                folders.insert(path)
                for case let child as String in manager.enumerator(atPath: path)?.allObjects ?? [] {
                    let full = (path as NSString).appendingPathComponent(child)
                    if manager.fileExists(atPath: full, isDirectory: &isDirectory), isDirectory.boolValue {
                        folders.insert(full)
                    }
                }
            } else {
                let folder = (path as NSString).deletingLastPathComponent
                folders.insert(folder.isEmpty ? "." : folder)
            }
        }
        if let voices = VoiceLibrary.locateDirectory(
            explicit: arguments.value(VoiceOptions.voices.long), environment: context.environment)
        {
            folders.insert(voices)
            let variants = (voices as NSString).appendingPathComponent("variants")
            if manager.fileExists(atPath: variants) { folders.insert(variants) }
        }
        return folders.sorted()
    }

    /// True for a file whose saving should re-run: a script, a voice profile, or an espeak-ng variant;
    /// never an editor's swap, backup or hidden temporary file.
    public static func isRelevant(_ change: FileWatcher.Change) -> Bool {
        let name = change.name
        if name.hasPrefix(".") || name.hasSuffix("~") || name.hasSuffix(".swp") || name.hasSuffix(".tmp") {
            return false
        }
        if name.hasSuffix("." + ScenarioParser.fileExtension) || name.hasSuffix(".voice") { return true }
        return (change.folder as NSString).lastPathComponent == "variants" && !name.contains(".")
    }

    /// Runs `body`, then waits for a save in the folders of `words` (scripts, folders, pattern names) or the
    /// Voices folder and runs it again, until Ctrl-C (or `EARSHOT_WATCH_RUNS` runs).
    /// A run that fails (a malformed script, a bad voice) prints its error and the loop goes on waiting.
    ///
    /// - Returns: the last run's status.
    /// - Throws: `CommandFailure` when the files cannot be watched.
    public static func loop(
        _ arguments: ParsedArguments, words: [String], context: CommandContext, body: () throws -> Int32
    ) throws -> Int32 {
        let watcher: FileWatcher
        let paths = resolvedPaths(words, context: context)
        let folders = folders(arguments, paths: paths, context: context)
        do {
            watcher = try FileWatcher()
            for folder in folders { try watcher.watch(folder: folder) }
        } catch let failure as FileWatcher.Failure {
            throw CommandFailure(failure.description)
        }
        let limit = context.environment[runLimitVariable].flatMap(Int.init)
        var runs = 0
        var status = ExitCode.success
        var changed: [FileWatcher.Change] = []
        // With --format json, standard output carries only the documents; the loop's own lines go to stderr.
        let say =
            arguments.value(CheckOutputs.formatOption.long) == CheckOutputs.Format.json.rawValue
            ? context.printError : context.print
        while true {
            if context.outputIsTerminal { context.writeOutput("\u{1B}[2J\u{1B}[H") }
            if !changed.isEmpty { say("saved: " + changed.map(\.path).joined(separator: ", ") + "\n") }
            status = runReportingErrors(body, context: context)
            runs += 1
            // 130: the run was stopped with Ctrl-C (listen catches it while playing), so the loop stops too.
            if let limit, runs >= limit { return status }
            if status == 130 { return status }
            say(
                "watching \(folders.count) folder\(folders.count == 1 ? "" : "s") for saved scripts and voices "
                    + "(Ctrl-C stops)")
            do {
                changed = try watcher.waitForChanges(relevant: isRelevant)
            } catch let failure as FileWatcher.Failure {
                throw CommandFailure(failure.description)
            }
        }
    }

    /// The paths the words name (pattern names resolved to their folders); words that name nothing are left
    /// for the run to report.
    static func resolvedPaths(_ words: [String], context: CommandContext) -> [String] {
        words.map { word in
            if FileManager.default.fileExists(atPath: word) { return word }
            if let scripts = ScenarioInputs.scriptsFolder(),
                FileManager.default.fileExists(atPath: scripts + "/" + word)
            {
                return scripts + "/" + word
            }
            return word
        }
    }

    /// One run; its error printed the way `earshot` prints errors, and turned into the status.
    static func runReportingErrors(_ body: () throws -> Int32, context: CommandContext) -> Int32 {
        do {
            return try body()
        } catch let failure as CommandFailure {
            context.printError(
                failure.isDiagnostics ? failure.message : "\(context.program): error: \(failure.message)")
            return failure.exitCode
        } catch let error as UsageError {
            context.printError("\(context.program): error: \(error.message)")
            return ExitCode.usage
        } catch {
            context.printError("\(context.program): error: \(Earshot.describe(error))")
            return ExitCode.failure
        }
    }
}

import EarshotAudio
import EarshotCore
import EarshotReport
import Foundation

extension RenderOutputs {
    /// What `render` and `compare` share: `-o` is required, every output is checked before any work, the render
    /// runs, the review page is staged when `--html` asks for one, every file is moved into place together and
    /// the summary is printed.
    static func runCommand(
        _ arguments: ParsedArguments, scripts: String, context: CommandContext,
        render: (ParsedArguments, String, CommandContext) throws -> RenderedAudio
    ) throws -> Int32 {
        guard let outputPath = arguments.value(RenderCommand.output.long) else {
            throw UsageError("missing -o <file.wav>: where to write the audio")
        }
        let inputs = try ScenarioInputs.scriptPaths(arguments.arguments(scripts), context: context)
        try checkOutputs(wav: outputPath, html: arguments.value(ReviewPageOptions.html.long), inputs: inputs)
        var rendered = try $defersPublishing.withValue(true) { try render(arguments, outputPath, context) }
        let page = try ReviewPageOptions.stageIfAsked(rendered, arguments: arguments)
        try rendered.publish(with: page.map { [$0] } ?? [])
        context.print(RenderCommand.summary(rendered))
        if let page { context.print("Wrote \(page.path) (review page)") }
        return ExitCode.success
    }

    /// Checks a render's outputs before any work, so a bad path fails at once and nothing the user has is at risk.
    ///
    /// The WAV must be named `….wav` and the page `….html`; the WAV, its `.vtt` and `.jsonl` companions, the page
    /// and every input script must be different files; no output may be a folder, and an existing output must be
    /// a regular file or a symbolic link to one (a device or FIFO is never replaced); each output's folder must
    /// exist.
    ///
    /// - Throws: `UsageError` (64) for a path that cannot be meant, `CommandFailure` (1) for a missing folder.
    public static func checkOutputs(wav: String, html: String?, inputs: [String]) throws {
        guard wav.lowercased().hasSuffix(".wav"), PathText.lastComponent(wav).count > 4 else {
            throw UsageError("-o \(wav): the audio goes to a .wav file (its .vtt and .jsonl are written beside it)")
        }
        if let html, !(html.lowercased().hasSuffix(".html") || html.lowercased().hasSuffix(".htm")) {
            throw UsageError("--html \(html): the review page goes to an .html file")
        }
        var outputs = [
            ("-o", wav), ("transcript", companion(of: wav, extension: "vtt")),
            ("timeline", companion(of: wav, extension: "jsonl")),
        ]
        if let html { outputs.append(("--html", html)) }
        let manager = FileManager.default
        var seen: [String: String] = [:]
        for input in inputs { seen[canonical(input)] = "the script \(input)" }
        for (role, path) in outputs {
            let key = canonical(path)
            if let other = seen[key] {
                throw UsageError("\(role) \(path) would overwrite \(other); choose another output name")
            }
            seen[key] = "\(role) \(path)"
            var isDirectory: ObjCBool = false
            if manager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw UsageError("\(path) is a folder; give a file inside it, such as \(path)/out.wav")
            }
            let folder = PathText.folder(of: path)
            if !manager.fileExists(atPath: folder, isDirectory: &isDirectory) {
                throw CommandFailure("cannot write \(path): the folder \(folder) does not exist")
            }
            if !isDirectory.boolValue {
                throw CommandFailure("cannot write \(path): \(folder) is a file, not a folder")
            }
            do {
                try AtomicFile.checkDestination(path)
            } catch let error as OutputFileError {
                throw UsageError("\(role) \(path): \(error.reason)")
            }
        }
    }

    /// The path with `.`/`..` and then symbolic links resolved, for telling whether two names are one file. A
    /// file that is not there yet is its folder's resolved path and its name.
    static func canonical(_ path: String) -> String {
        let absolute = PathText.standardized(path, in: FileManager.default.currentDirectoryPath)
        if let resolved = resolved(absolute) { return resolved }
        let folder = PathText.folder(of: absolute)
        guard let resolvedFolder = resolved(folder) else { return absolute }
        return (resolvedFolder == "/" ? "" : resolvedFolder) + "/" + PathText.lastComponent(absolute)
    }

    /// `path` with every symbolic link resolved (`realpath`), or nil when it does not exist.
    private static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

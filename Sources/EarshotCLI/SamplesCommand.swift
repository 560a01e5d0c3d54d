import EarshotAudio
import EarshotCore
import EarshotReport
import EarshotScript
import Foundation

/// `earshot samples [--check]`: regenerates `Samples/`, the rendered listening samples, or checks they are fresh.
///
/// For every script under `Scripts/PATTERN/` it writes `Samples/PATTERN/NAME.wav` with `NAME.vtt` and
/// `NAME.jsonl` and a review page, plus an index, `Samples/README.md`. Each script is rendered in this process as
/// `earshot render Scripts/PATTERN/NAME.earshot -o … --html … --link-audio`, run from the folder that holds
/// `Scripts/`, renders it: the same script path in the outputs, the same voices and sounds. A sample therefore
/// equals what `earshot render` gives for that script anywhere (every phrase is synthesized from one fixed espeak-ng
/// state, whatever was synthesized before it), and `--check` can compare bytes. `--check` renders into a temporary
/// folder, compares every file with `Samples/` and names the stale, missing and extra ones, and any WAV whose
/// companion files are from another render (status 1 when any).
public struct SamplesCommand: Command {
    /// Creates the command.
    public init() {}

    public let signature = CommandSignature(
        name: "samples", summary: "Regenerate Samples/ (every script rendered), or --check that it is fresh.",
        arguments: [],
        options: [
            .flag("check", help: "Render into a temporary folder and compare bytes with Samples/; change nothing."),
            .value(
                "output", short: "o", valueName: "dir", help: "The samples folder (default: Samples/ beside Scripts/)."),
            .value("scripts", valueName: "dir", help: "The scripts folder (default: the nearest Scripts/)."),
            VoiceOptions.voices,
            CacheOptions.noCache,
            CacheOptions.jobs,
        ],
        examples: ["samples", "samples --check"])

    /// It speaks unless the phrase cache answers (then it never opens espeak-ng).
    public func speaks(_ arguments: ParsedArguments, context: CommandContext) -> Bool {
        CacheOptions.needsEspeak(arguments, environment: context.environment)
    }

    public func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        guard let scripts = arguments.value("scripts") ?? ScenarioInputs.scriptsFolder() else {
            throw CommandFailure("no Scripts/ folder here or above; give --scripts")
        }
        let root = URL(fileURLWithPath: scripts).standardizedFileURL.path
        // Absolute: the samples are the same files wherever `samples` runs, and messages name them whole.
        let samples = URL(
            fileURLWithPath: arguments.value("output")
                ?? URL(fileURLWithPath: root).deletingLastPathComponent().appendingPathComponent("Samples").path
        )
        .standardizedFileURL.path
        try Self.checkFolder(samples)
        try Self.checkOwnership(of: samples)
        let place = Renderer.place(root: root, arguments: arguments, context: context)
        // espeak-ng starts (with the voices the renders use) while the scripts are read.
        if context.catchesInterrupts, speaks(arguments, context: context) {
            EngineWarmUp.start(voicesDirectory: place.voices)
        }
        let paths = try ScenarioInputs.scriptPaths([root], context: context)
        let documents = try ScenarioInputs.parse(paths, jobs: try CacheOptions.jobs(arguments))
        let manager = FileManager.default
        let target =
            arguments.flag("check")
            ? NSTemporaryDirectory() + "earshot-samples-" + UUID().uuidString : samples
        defer { if arguments.flag("check") { try? manager.removeItem(atPath: target) } }
        // A folder without a manifest passed `checkOwnership` empty or new: a run that fails or is interrupted
        // takes back what it wrote there, rather than leave a partial set the next run would refuse as not its own.
        // An empty manifest marks the folder as ours from the start, for a run killed outright (SIGKILL).
        let firstRun = !arguments.flag("check") && !manager.fileExists(atPath: samples + "/" + Self.manifestName)
        let existed = manager.fileExists(atPath: samples)
        let takeBack: @Sendable () -> Void = {
            Self.takeBack(paths, root: root, from: samples, removingFolder: !existed)
        }
        let folders = FolderGate()
        if context.catchesInterrupts {
            // Ctrl-C, or a CI job's SIGTERM: the renders' temporaries are removed, no render makes a folder from then
            // on, and what they wrote is taken back.
            let checking = arguments.flag("check")
            InterruptCleanup.onInterrupt {
                folders.close()
                if checking { try? FileManager.default.removeItem(atPath: target) }
                if firstRun { takeBack() }
            }
        }
        do {
            if firstRun {
                try OutputFolders.create(samples)
                try AtomicFile.write(Data(), to: samples + "/" + Self.manifestName)
            }
            let renderer = try Renderer(place: place, folders: folders, arguments: arguments, context: context)
            return try write(
                paths, documents: documents, root: root, into: target, samples: samples, renderer: renderer,
                arguments: arguments, context: context)
        } catch {
            if firstRun { takeBack() }
            throw error
        }
    }

    /// Renders every script into `target` (the samples folder, or a temporary one with `--check`), writes the
    /// index and the manifest, then compares (`--check`) or removes what the previous set had and this one has not.
    private func write(
        _ paths: [String], documents: [ScenarioDocument], root: String, into target: String, samples: String,
        renderer: Renderer, arguments: ParsedArguments, context: CommandContext
    ) throws -> Int32 {
        let manager = FileManager.default
        var produced: [String] = []
        // Scripts render side by side (up to --jobs), on one engine and one phrase cache; files are listed in script
        // order. The longest scenarios start first, so that none is left to run alone at the end.
        let longestFirst = documents.indices.sorted {
            (documents[$0].endTime, $1) > (documents[$1].endTime, $0)
        }
        try ParallelRuns.forEach(count: paths.count, jobs: try CacheOptions.jobs(arguments), startOrder: longestFirst) {
            index in
            let path = paths[index]
            let relative = String(path.dropFirst(root.count + 1))
            let folder = relative.split(separator: "/").dropLast().joined(separator: "/")
            let wavRelative = (folder.isEmpty ? "" : folder + "/") + PathText.stem(path) + ".wav"
            try renderer.render(path, to: target + "/" + wavRelative)
            return (folder, wavRelative)
        } deliver: { _, rendered in
            let (folder, wavRelative) = rendered
            let stem = String(wavRelative.dropLast(4))
            let outputs = (try? manager.contentsOfDirectory(atPath: target + "/" + folder)) ?? []
            for file in outputs.sorted() where (folder.isEmpty ? file : folder + "/" + file).hasPrefix(stem + ".") {
                produced.append(folder.isEmpty ? file : folder + "/" + file)
            }
        }
        try AtomicFile.write(
            SamplesIndex.markdown(paths: paths, documents: documents, root: root), to: target + "/README.md")
        produced.append("README.md")
        try AtomicFile.write(produced.sorted().joined(separator: "\n") + "\n", to: target + "/" + Self.manifestName)
        produced.append(Self.manifestName)
        if arguments.flag("check") {
            return try compare(produced: produced, rendered: target, samples: samples, context: context)
        }
        for extra in Self.ownedFiles(in: samples) where !produced.contains(extra) {
            try manager.removeItem(atPath: samples + "/" + extra)
            context.print("removed \(samples)/\(extra)")
        }
        context.print("Wrote \(produced.count) files in \(samples)/ from \(paths.count) scripts")
        return ExitCode.success
    }

    private func compare(
        produced: [String], rendered: String, samples: String, context: CommandContext
    ) throws -> Int32 {
        let manager = FileManager.default
        var problems: [String] = []
        for file in produced {
            guard let fresh = manager.contents(atPath: rendered + "/" + file) else { continue }
            guard let stored = manager.contents(atPath: samples + "/" + file) else {
                problems.append("missing: \(samples)/\(file)")
                continue
            }
            if stored != fresh { problems.append("stale: \(samples)/\(file)") }
        }
        for extra in Self.ownedFiles(in: samples) where !produced.contains(extra) {
            problems.append("extra: \(samples)/\(extra) (no script renders it)")
        }
        // Each stored WAV with its transcript, timeline and page must be one render (a killed `earshot samples`
        // can leave a mixed set; byte comparison alone would call it stale without saying why).
        for file in produced where file.hasSuffix(".wav") && manager.fileExists(atPath: samples + "/" + file) {
            let wav = samples + "/" + file
            let found =
                (try? RenderStamp.check(wav: wav, page: RenderOutputs.companion(of: wav, extension: "html")))
                ?? [RenderStamp.Mismatch(path: wav, problem: "cannot be read as a WAV")]
            problems += found.map { "mixed: \($0)" }
        }
        for problem in problems { context.print(problem) }
        if problems.isEmpty {
            context.print("\(samples)/ is up to date (\(produced.count) files)")
            return ExitCode.success
        }
        context.printError("\(problems.count) sample file(s) out of date: run `earshot samples` (or `make samples`)")
        return ExitCode.failure
    }

    /// The list of files the last `earshot samples` wrote in its folder. Only those are ever replaced or
    /// removed: a folder is never emptied of files the user put there.
    static let manifestName = ".earshot-samples"

    /// The files the previous run wrote (from its manifest) that still exist, relative to `folder`.
    static func ownedFiles(in folder: String) -> [String] {
        guard let manifest = try? String(contentsOfFile: folder + "/" + manifestName, encoding: .utf8) else {
            return []
        }
        return manifest.split(separator: "\n").map(String.init).filter { name in
            !name.isEmpty && !name.hasPrefix("/") && !name.split(separator: "/").contains("..")
                && FileManager.default.fileExists(atPath: folder + "/" + name)
        }.sorted()
    }

    /// Removes what a failed first run wrote into `samples`: each script's outputs (its stem and an extension, in its
    /// pattern's folder), the index, the folders it made (only when empty), and `samples` itself when the run made
    /// it. Anything else is left alone.
    static func takeBack(_ paths: [String], root: String, from samples: String, removingFolder: Bool) {
        let manager = FileManager.default
        var folders: Set<String> = []
        for path in paths {
            let components = String(path.dropFirst(root.count + 1)).split(separator: "/").dropLast().map(String.init)
            let folder = ([samples] + components).joined(separator: "/")
            let stem = PathText.stem(path) + "."
            for file in (try? manager.contentsOfDirectory(atPath: folder)) ?? [] where file.hasPrefix(stem) {
                try? manager.removeItem(atPath: folder + "/" + file)
            }
            for depth in 0..<components.count {
                folders.insert(([samples] + components.prefix(depth + 1)).joined(separator: "/"))
            }
        }
        try? manager.removeItem(atPath: samples + "/README.md")
        try? manager.removeItem(atPath: samples + "/" + manifestName)
        // Deepest first; rmdir(2) removes a folder only when it is empty.
        for folder in folders.sorted(by: { $0.count > $1.count }) { rmdir(folder) }
        if removingFolder { rmdir(samples) }
    }

    /// Refuses a samples path that exists and is not a folder (a file, a device such as `/dev/full`).
    static func checkFolder(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return
        }
        throw CommandFailure("cannot write samples into \(path): it is not a folder; give a folder with -o")
    }

    /// Refuses to write into a folder that has files but no manifest: it is not a samples folder, and rendering
    /// there could overwrite what the user keeps in it.
    static func checkOwnership(of folder: String) throws {
        let manager = FileManager.default
        guard let entries = try? manager.contentsOfDirectory(atPath: folder), !entries.isEmpty else { return }
        guard entries.contains(manifestName) else {
            throw CommandFailure(
                "\(folder) already holds files and was not written by `earshot samples` (no \(manifestName)); "
                    + "choose an empty or new folder with -o")
        }
    }
}

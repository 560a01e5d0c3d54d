import EarshotCore
import EarshotScript
import EarshotSystem
import Foundation

/// Finding, parsing and running scenario scripts: what `check`, `render`, `compare` and `listen` share.
public enum ScenarioInputs {
    /// `--profile <name>`: run under another user profile than the script's header says.
    public static let profileOption = OptionSpec.value(
        "profile", valueName: "name",
        help: "User profile: \(UserProfile.builtIn.map(\.name).joined(separator: ", ")) (default: the script's).")

    /// The script files named by `words`: files, folders (searched recursively, sorted), or a pattern name
    /// such as `announcement-spam` (its folder under the nearest `Scripts/`).
    ///
    /// - Throws: `CommandFailure` naming a path that does not exist or a folder with no scripts.
    public static func scriptPaths(_ words: [String], context: CommandContext) throws -> [String] {
        let manager = FileManager.default
        var paths: [String] = []
        for word in words {
            // An empty word would name the Scripts folder itself and quietly check everything.
            guard !word.isEmpty else { throw UsageError("an empty path names no script") }
            var isDirectory: ObjCBool = false
            var path = word
            if !manager.fileExists(atPath: path, isDirectory: &isDirectory),
                let scripts = scriptsFolder(),
                manager.fileExists(atPath: scripts + "/" + word, isDirectory: &isDirectory)
            {
                path = scripts + "/" + word
            }
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                let patterns =
                    scriptsFolder().flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0) } ?? []
                let guess =
                    Spelling.nearest(to: word, among: patterns, limit: 3).map { " (did you mean '\($0)'?)" } ?? ""
                throw UsageError("\(word): no such file, folder or pattern\(guess)")
            }
            if isDirectory.boolValue {
                let found = FolderListing.files(under: path, endingWith: "." + ScenarioParser.fileExtension)
                    .map { (path.hasSuffix("/") ? path : path + "/") + $0 }
                guard !found.isEmpty else {
                    throw CommandFailure(
                        "\(word): no .\(ScenarioParser.fileExtension) scripts in this folder",
                        exitCode: ExitCode.scriptFailure)
                }
                paths += found
            } else {
                paths.append(path)
            }
        }
        return paths
    }

    /// The nearest `Scripts` folder, walking up from `start` (the current directory); else an install's
    /// `share/earshot/Scripts` (see `InstallLayout`).
    static func scriptsFolder(from start: String = FileManager.default.currentDirectoryPath) -> String? {
        nearestScriptsFolder(from: start)
            ?? InstallLayout.shareFolder().map { $0 + "/Scripts" }.flatMap {
                FileManager.default.fileExists(atPath: $0) ? $0 : nil
            }
    }

    private static func nearestScriptsFolder(from start: String) -> String? {
        var directory = start
        for _ in 0..<8 {
            let candidate = (directory == "/" ? "" : directory) + "/Scripts"
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), isDirectory.boolValue {
                return candidate
            }
            directory = PathText.folder(of: directory)
        }
        return nil
    }

    /// Parses every script, collecting every diagnostic before failing.
    ///
    /// - Throws: `CommandFailure` with status 2 and the diagnostics, so nothing runs when any script is bad.
    public static func parse(_ paths: [String], jobs: Int = 1) throws -> [ScenarioDocument] {
        var documents: [ScenarioDocument] = []
        var problems: [String] = []
        // Scripts parse side by side (0.2–1.8 ms each: a folder of 24 took 5.4 ms serially, before any of them could
        // run); documents and problems come back in the scripts' order whatever the jobs.
        try ParallelRuns.forEach(count: paths.count, jobs: jobs) { index in
            parseOne(paths[index])
        } deliver: { _, outcome in
            switch outcome {
            case .success(let document): documents.append(document)
            case .failure(let problem): problems.append(problem.text)
            }
        }
        guard problems.isEmpty else {
            throw CommandFailure.diagnostics(problems.joined(separator: "\n"))
        }
        return documents
    }

    /// Why a script could not be parsed: its located diagnostics, or that it cannot be read.
    private struct ParseProblem: Error {
        var text: String
    }

    private static func parseOne(_ path: String) -> Result<ScenarioDocument, ParseProblem> {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(ParseProblem(text: "\(path): error: cannot read the script"))
        }
        do {
            return .success(try ScenarioParser.parse(bytes: [UInt8](data), path: path))
        } catch {
            return .failure(ParseProblem(text: error.description))
        }
    }

    /// A speech library over the process's espeak-ng, with the voice a script or `--voice` asks for.
    public struct Speech {
        /// The voice profiles available.
        public var library: VoiceLibrary?
        /// espeak-ng, started only when a phrase or voice is not in the phrase cache.
        public var engine: DeferredSynthesizer
        /// The phrase cache, unless `--no-cache` (or no cache folder).
        public var phraseCache: PhraseCache?
        /// The synthesizer, started on first use.
        public var synthesizer: EspeakSynthesizer {
            get throws { try engine.synthesizer() }
        }
        /// Timings and audio, cached across scripts.
        public var speech: SpeechLibrary
        /// Profiles already found acceptable by this speech's espeak-ng or phrase cache.
        private let accepted = AcceptedVoices()
        /// The folder a document's relative path is taken from when its text is read again (for a diagnostic's
        /// line): nil for the current folder. `samples` names its scripts relative to the folder above `Scripts/`.
        var documentFolder: String?

        /// The voice for a document: `--voice`, else the header's `voice`, else `default`.
        public func voice(for document: ScenarioDocument, override: String?) throws -> VoiceProfile {
            let name = override ?? document.header.settings.voice ?? VoiceProfile.standard.name
            guard let library else {
                guard name == VoiceProfile.standard.name else {
                    throw CommandFailure("no Voices folder found for voice '\(name)' (set --voices or $EARSHOT_VOICES)")
                }
                return .standard
            }
            // A profile is checked once per run of scripts, not once per script: in a folder that was a round trip
            // to an espeak-ng helper (or a cache read) for each script, all for the same one or two voices.
            let found = try? library.profile(named: name)
            if let found, accepted.contains(found) { return found }
            // A voice the cache saw accepted needs no espeak-ng; starting it is not a fault of the voice.
            let known = found.map { phraseCache?.knowsValid($0) == true } ?? false
            let synthesizer = known ? nil : try self.synthesizer
            do {
                let profile = try library.profile(named: name)
                if let synthesizer {
                    try library.validate(profile, with: synthesizer)
                    phraseCache?.recordValid(profile)
                }
                accepted.insert(profile)
                return profile
            } catch let error as VoiceFileError {
                // The profile exists but its file asks espeak-ng for something it lacks: the file's line is at fault.
                throw CommandFailure.diagnostics(error.description)
            } catch {
                // A bad --voice is a bad command line (64); a bad `voice` line is the script's (2), shown there.
                if override != nil { throw UsageError("--voice \(name): \(error)") }
                guard let location = document.header.settings.voiceLocation else {
                    throw CommandFailure(
                        "\(document.path): voice '\(name)': \(error)", exitCode: ExitCode.scriptFailure)
                }
                let file = documentFolder.map { PathText.standardized(document.path, in: $0) } ?? document.path
                let lines =
                    (try? String(contentsOfFile: file, encoding: .utf8))?
                    .split(separator: "\n", omittingEmptySubsequences: false) ?? []
                let source = lines.indices.contains(location.line - 1) ? String(lines[location.line - 1]) : ""
                let diagnostic = ScriptDiagnostic(
                    location: location, length: name.count, message: "\(error)", sourceLine: source)
                throw CommandFailure.diagnostics(ScriptDiagnostics([diagnostic]).description)
            }
        }
    }

    /// The voices and synthesizer for this process. Commands that never mix audio (`check`) pass
    /// `keepingAudio: false`: the engine then keeps only timings, memory stays small on long runs, and the phrase
    /// cache stores only timings. Phrases
    /// come through the phrase cache unless `--no-cache` is given or `phraseCache` is false. Audio kept beyond
    /// `audioCacheLimit` (or `$EARSHOT_AUDIO_MEMORY`) is spilled to a temporary file (a render mixes what the engine synthesized, never
    /// synthesizing a phrase twice) unless `spillingAudio` is false (`listen`, which plays each phrase once).
    public static func speech(
        _ arguments: ParsedArguments, context: CommandContext, keepingAudio: Bool = true,
        audioCacheLimit: Int = 64 << 20, phraseCache: Bool = true, spillingAudio: Bool = true
    ) throws -> Speech {
        let directory = VoiceLibrary.locateDirectory(
            explicit: arguments.value(VoiceOptions.voices.long), environment: context.environment)
        let library = try directory.map { try VoiceLibrary(directory: $0) }
        let engine = DeferredSynthesizer(
            voicesDirectory: library?.directory,
            versionFolder: phraseCache ? CacheOptions.usedFolder(arguments, environment: context.environment) : nil)
        let pronunciations = library?.pronunciations ?? .empty
        // The phrase cache sits under the library: `--no-cache` (or no cache folder) gives espeak-ng itself.
        // A run that mixes no audio stores only timings in the cache (it reads both).
        let cache =
            phraseCache
            ? try CacheOptions.phraseCache(engine, arguments: arguments, context: context, storesAudio: keepingAudio)
            : nil
        let synthesizer: any Synthesizer = cache ?? engine
        let speech =
            keepingAudio
            // Audio beyond the limit goes to a nameless spill file, so a long render never synthesizes twice.
            ? SpeechLibrary(
                synthesizer: synthesizer,
                audioCacheLimit: try CacheOptions.audioMemory(
                    environment: context.environment, standard: audioCacheLimit),
                pronunciations: pronunciations,
                spillDirectory: spillingAudio ? NSTemporaryDirectory() : nil, timingStore: cache)
            : SpeechLibrary(
                synthesizer: synthesizer, audioCacheLimit: 0, pronunciations: pronunciations, timingStore: cache)
        if cache == nil { _ = try engine.synthesizer() }  // uncached runs report a broken espeak-ng at once
        return Speech(library: library, engine: engine, phraseCache: cache, speech: speech)
    }

    /// Runs one document headlessly with the voice and profile the options ask for.
    public static func run(
        _ document: ScenarioDocument, speech: Speech, arguments: ParsedArguments
    ) throws -> ScenarioRun {
        let profile = try profile(for: document, arguments: arguments)
        return try run(
            document, speech: speech, arguments: arguments, profile: ReaderOptions.apply(arguments, to: profile))
    }

    /// The script's profile, or the one `--profile` names (an unknown name is a usage error).
    static func profile(for document: ScenarioDocument, arguments: ParsedArguments) throws -> UserProfile {
        do {
            return try ScenarioRunner.profile(for: document, override: arguments.value(profileOption.long))
        } catch {
            throw UsageError("\(error)")
        }
    }

    /// Runs one document headlessly under `profile`, with the voice the options ask for.
    public static func run(
        _ document: ScenarioDocument, speech: Speech, arguments: ParsedArguments, profile: UserProfile
    ) throws -> ScenarioRun {
        let voice = try speech.voice(for: document, override: arguments.value(VoiceOptions.voice.long))
        return try ScenarioRunner.run(document, profile: profile, voice: voice, speech: speech.speech)
    }
}

/// The voice profiles a ``ScenarioInputs/Speech`` has accepted, shared by the scripts it runs side by side.
private final class AcceptedVoices: @unchecked Sendable {
    private let lock = NSLock()
    private var profiles: Set<VoiceProfile> = []

    func contains(_ profile: VoiceProfile) -> Bool { lock.withLock { profiles.contains(profile) } }

    func insert(_ profile: VoiceProfile) { _ = lock.withLock { profiles.insert(profile) } }
}

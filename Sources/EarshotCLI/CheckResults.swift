import EarshotAudio
import EarshotReport
import EarshotSystem
import Foundation

/// `earshot check` runs remembered whole, so an identical check answers without parsing or simulating anything.
///
/// A run's output depends only on its inputs: the scripts, their golden transcripts, the voice profiles, the
/// command line, the environment, the `earshot` executable and espeak-ng. A check whose inputs are all exactly
/// those of a remembered run replays that run's output: standard output and standard error in their order, the
/// files it wrote (`--junit`, `--sarif`, `--jsonl`) and its exit status, byte for byte. The key (``Key``) holds:
///
/// - the current folder, the command line (every option and argument) and the environment (all of it but `_`,
///   the shell's note of the program it started);
/// - whether standard output is a terminal (colour);
/// - each script's path and a fingerprint of its bytes, and of its `NAME.transcript` (or that there is none);
/// - the voices folder the run uses and a fingerprint of every file under it (profiles, variants,
///   pronunciations);
/// - the engine stamp (``EngineStamp``): what identifies this `earshot` executable, the dynamic loader's setting
///   and the espeak-ng library file, and espeak-ng's version. Without a stamp that still holds, nothing is
///   looked up;
/// - espeak-ng's data folder (where it is, and the folder's identity, which a package upgrade changes).
///
/// The key is made before the run and again after it; the result is kept only when the two agree (a script saved
/// while it ran is not remembered with the wrong text). Not remembered: runs with `--no-cache`, `--rerun`,
/// `--record`, `--update` or `--watch`, runs that failed with an error, and runs that printed a warning of the tool's
/// own (`earshot: …` on standard error: a cache folder that cannot be written, say).
enum CheckResults {
    /// `--rerun`.
    static let rerunOption = OptionSpec.flag(
        "rerun", help: "Run every script even when an identical run is remembered (phrases still come from the cache).")

    /// The store for this command line, nil when its results are not remembered.
    static func store(_ arguments: ParsedArguments, context: CommandContext) -> ResultStore? {
        let excluded = [
            CacheOptions.noCache, rerunOption, CheckOutputs.recordOption, CheckOutputs.updateOption, CheckWatch.option,
        ]
        guard !excluded.contains(where: { arguments.flag($0.long) }),
            let folder = CacheOptions.folder(environment: context.environment)
        else { return nil }
        // Within the cache's bound too: an eighth of it at most (`EARSHOT_CACHE_SIZE=0` keeps nothing).
        let bound = (try? CacheOptions.limit(environment: context.environment)) ?? PhraseCache.defaultLimit
        return ResultStore(cacheFolder: folder, byteLimit: min(ResultStore.defaultByteLimit, bound / 8))
    }

    /// What a run's output depends on.
    struct Key: Equatable {
        /// The engine stamp (executable, loader, library, version), nil when it does not hold.
        var engine: String?
        /// Everything else: command line, environment, scripts, transcripts, voices.
        var inputs: String

        /// The key's text, nil without an engine stamp.
        var text: String? { engine.map { inputs + "\u{0}engine\u{0}" + $0 } }

        /// True when a run that began with key `before` and ended with this one may be remembered under this one:
        /// the same inputs, and the same engine unless the run itself wrote the stamp.
        func follows(_ before: Key) -> Bool {
            engine != nil && inputs == before.inputs && (before.engine == nil || before.engine == engine)
        }
    }

    /// The key for running `paths` with `arguments`; nil when a script or voice file cannot be read (the run then
    /// goes on unremembered, and reports what it cannot read itself).
    static func key(_ arguments: ParsedArguments, paths: [String], context: CommandContext) -> Key? {
        var fields = ["earshot check results 1", FileManager.default.currentDirectoryPath]
        fields.append("terminal \(context.outputIsTerminal)")
        fields.append("command \(arguments.command)")
        // Every field says what it is, so no value can pass for another kind of field.
        for (name, values) in arguments.optionValues.sorted(by: { $0.key < $1.key }) {
            fields.append("option \(name)")
            fields += values.map { "value \($0)" }
        }
        fields += arguments.flags.sorted().map { "flag \($0)" }
        for (name, values) in arguments.argumentValues.sorted(by: { $0.key < $1.key }) {
            fields.append("argument \(name)")
            fields += values.map { "value \($0)" }
        }
        // `_` is the shell's note of the program it started (perf, strace, earshot itself), never read by Earshot.
        fields += context.environment.filter { $0.key != "_" }.sorted(by: { $0.key < $1.key })
            .map { "env \($0.key)=\($0.value)" }
        for path in paths {
            guard let script = FileManager.default.contents(atPath: path) else { return nil }
            let transcript = GoldenTranscript.path(forScript: path)
            let golden = FileManager.default.contents(atPath: transcript).map(ContentHash.of) ?? "absent"
            fields += [
                "script \(path)", "bytes \(ContentHash.of(script))", "transcript \(transcript)", "bytes \(golden)",
            ]
        }
        let voices = VoiceLibrary.locateDirectory(
            explicit: arguments.value(VoiceOptions.voices.long), environment: context.environment)
        fields.append("voices \(voices ?? "none")")
        fields.append("espeak-data \(DeferredSynthesizer.dataFingerprint(voicesDirectory: voices))")
        if let voices {
            guard let files = tree(voices) else { return nil }
            fields += files
        }
        let engine = CacheOptions.phraseFolder(environment: context.environment).flatMap {
            EngineStamp.rememberedStamp(in: $0, environment: context.environment)?.text
        }
        return Key(engine: engine, inputs: fields.joined(separator: "\u{0}"))
    }

    /// Every file under `folder`, sorted, as its relative path then a fingerprint of its bytes; links are
    /// followed, into linked folders too, eight levels deep at most. Nil when something cannot be read.
    private static func tree(_ folder: String, relative: String = "", depth: Int = 0) -> [String]? {
        let manager = FileManager.default
        guard depth < 8, let names = try? manager.contentsOfDirectory(atPath: folder) else { return nil }
        var fields: [String] = []
        for name in names.sorted() {
            let path = folder + "/" + name
            let inner = relative.isEmpty ? name : relative + "/" + name
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
            if isDirectory.boolValue {
                guard let below = tree(path, relative: inner, depth: depth + 1) else { return nil }
                fields += ["folder \(inner)"] + below
                continue
            }
            guard let data = manager.contents(atPath: path) else { return nil }
            fields += ["file \(inner)", "bytes \(ContentHash.of(data))"]
        }
        return fields
    }

    /// Replays a remembered run: its output and errors in order, its files, and its exit status. Nil (and nothing
    /// done) when the payload is not one this version wrote.
    ///
    /// - Throws: what writing a file throws, as the run itself would have.
    static func replay(_ payload: Data, context: CommandContext) throws -> Int32? {
        guard let records = Recording.records(payload) else { return nil }
        var exitCode: Int32?
        for record in records {
            switch record {
            case .output(let text): context.writeOutput(text)
            case .error(let text): context.writeError(text)
            case .folder(let path): try OutputFolders.create(path)
            case .file(let path, let data): try AtomicFile.write(data, to: path)
            case .exit(let code): exitCode = code
            }
        }
        return exitCode
    }

    /// What a run wrote, in order, as it wrote it (when it is to be remembered: else it only writes the files).
    final class Recording: @unchecked Sendable {
        enum Record {
            case output(String)
            case error(String)
            case folder(String)
            case file(path: String, data: Data)
            case exit(Int32)
        }

        private let lock = NSLock()
        private let keeping: Bool
        private var records: [Record] = []
        private var warned = false

        /// A recording that keeps what is written (`keeping`), or one that only writes the files.
        init(keeping: Bool) { self.keeping = keeping }

        /// `context`, with everything written to standard output and error also recorded.
        func context(wrapping context: CommandContext) -> CommandContext {
            guard keeping else { return context }
            var recording = context
            recording.writeOutput = { [self] text in
                lock.withLock { records.append(.output(text)) }
                context.writeOutput(text)
            }
            recording.writeError = { [self] text in
                lock.withLock {
                    records.append(.error(text))
                    if text.hasPrefix("earshot: ") { warned = true }
                }
                context.writeError(text)
            }
            return recording
        }

        /// Makes `path` a folder (and its parents), and records it.
        func createFolder(_ path: String) throws {
            try OutputFolders.create(path)
            if keeping { lock.withLock { records.append(.folder(path)) } }
        }

        /// Writes `text` to `path` atomically (`AtomicFile`), and records it.
        func write(_ text: String, to path: String) throws {
            let data = Data(text.utf8)
            try AtomicFile.write(data, to: path)
            if keeping { lock.withLock { records.append(.file(path: path, data: data)) } }
        }

        /// The payload to remember for a run that ended with `exitCode`; nil when the run warned (or nothing was
        /// kept).
        func payload(exitCode: Int32) -> Data? {
            lock.withLock {
                guard keeping, !warned else { return nil }
                var bytes: [UInt8] = []
                for record in records + [.exit(exitCode)] {
                    switch record {
                    case .output(let text): field(0x6f, [Array(text.utf8)], into: &bytes)
                    case .error(let text): field(0x65, [Array(text.utf8)], into: &bytes)
                    case .folder(let path): field(0x64, [Array(path.utf8)], into: &bytes)
                    case .file(let path, let data): field(0x66, [Array(path.utf8), [UInt8](data)], into: &bytes)
                    case .exit(let code): field(0x78, [Array(String(code).utf8)], into: &bytes)
                    }
                }
                return Data(bytes)
            }
        }

        /// One record: its kind byte, then each part as a 4-byte little-endian length and its bytes.
        private func field(_ kind: UInt8, _ parts: [[UInt8]], into bytes: inout [UInt8]) {
            bytes.append(kind)
            for part in parts {
                withUnsafeBytes(of: UInt32(part.count).littleEndian) { bytes += $0 }
                bytes += part
            }
        }

        /// The records of a payload, ending with its exit status; nil when it is not a whole payload.
        static func records(_ payload: Data) -> [Record]? {
            let bytes = [UInt8](payload)
            var offset = 0
            func part() -> [UInt8]? {
                guard offset + 4 <= bytes.count else { return nil }
                let count = bytes[offset..<(offset + 4)].reversed().reduce(0) { $0 << 8 | Int($1) }
                offset += 4
                guard count <= bytes.count - offset else { return nil }
                defer { offset += count }
                return Array(bytes[offset..<(offset + count)])
            }
            var records: [Record] = []
            while offset < bytes.count {
                let kind = bytes[offset]
                offset += 1
                guard let first = part() else { return nil }
                let text = String(decoding: first, as: UTF8.self)
                switch kind {
                case 0x6f: records.append(.output(text))
                case 0x65: records.append(.error(text))
                case 0x64: records.append(.folder(text))
                case 0x66:
                    guard let data = part() else { return nil }
                    records.append(.file(path: text, data: Data(data)))
                case 0x78:
                    guard let code = Int32(text), offset == bytes.count else { return nil }
                    records.append(.exit(code))
                default: return nil
                }
            }
            guard case .exit = records.last else { return nil }
            return records
        }
    }
}

import EarshotCore
import EarshotSystem
import Foundation

/// The phrase cache as commands see it: where it lives, its bound, `--no-cache`, and `--jobs`.
///
/// The cache folder is `$EARSHOT_CACHE_DIR` when set, else `$XDG_CACHE_HOME/earshot` (an absolute
/// `XDG_CACHE_HOME` only, as the XDG base directory specification asks), else `~/.cache/earshot`; entries go in
/// its `phrases/` folder. Its bound is `$EARSHOT_CACHE_SIZE` (bytes, or with a `K`, `M` or `G` suffix; default
/// 512M).
public enum CacheOptions {
    /// `--no-cache`: neither read nor write the phrase cache.
    public static let noCache = OptionSpec.flag(
        "no-cache", help: "Synthesize every phrase afresh; neither read nor write the phrase cache.")

    /// `--jobs <n>`: how many scripts run (and phrases are synthesized) at once.
    public static let jobs = OptionSpec.value(
        "jobs", short: "j", valueName: "n",
        help: "Run up to N scripts at once, each phrase in its own espeak-ng process (default: the cores).")

    /// The phrase folder a command with these arguments reads and writes; nil with `--no-cache` or without a
    /// cache folder.
    public static func usedFolder(_ arguments: ParsedArguments, environment: [String: String]) -> String? {
        arguments.flag(noCache.long) ? nil : phraseFolder(environment: environment)
    }

    /// True when a command with these arguments will open espeak-ng whatever it says: no phrase cache, or one
    /// whose ``EngineStamp`` no longer holds (so the library must be opened for its version). Commands that may be
    /// answered from the cache open it ahead only then.
    public static func needsEspeak(_ arguments: ParsedArguments, environment: [String: String]) -> Bool {
        guard let folder = usedFolder(arguments, environment: environment) else { return true }
        return EngineStamp.rememberedVersion(in: folder) == nil
    }

    /// The environment variable naming the cache folder outright.
    public static let folderVariable = "EARSHOT_CACHE_DIR"
    /// The environment variable bounding the cache's size.
    public static let sizeVariable = "EARSHOT_CACHE_SIZE"

    /// The cache folder for `environment`, nil when neither a cache folder nor a home is known. A relative
    /// `EARSHOT_CACHE_DIR` is taken from the current folder, and given as a whole path (in messages, and to
    /// `earshot cache`).
    public static func folder(environment: [String: String]) -> String? {
        if let explicit = environment[folderVariable], !explicit.isEmpty {
            return explicit.hasPrefix("/")
                ? explicit : PathText.standardized(explicit, in: FileManager.default.currentDirectoryPath)
        }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/earshot" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/earshot" }
        return nil
    }

    /// The folder holding the entries, inside the cache folder.
    public static func phraseFolder(environment: [String: String]) -> String? {
        folder(environment: environment).map { $0 + "/phrases" }
    }

    /// The environment variable bounding the audio a render keeps in memory (the rest is spilled to a file).
    public static let audioMemoryVariable = "EARSHOT_AUDIO_MEMORY"

    /// The cache's bound in bytes: `$EARSHOT_CACHE_SIZE`, else ``PhraseCache/defaultLimit``.
    ///
    /// - Throws: `UsageError` naming the variable when its value is not a size.
    public static func limit(environment: [String: String]) throws -> Int {
        try size(sizeVariable, environment: environment) ?? PhraseCache.defaultLimit
    }

    /// The audio a render keeps in memory, in bytes: `$EARSHOT_AUDIO_MEMORY`, else `standard`.
    ///
    /// - Throws: `UsageError` naming the variable when its value is not a size.
    public static func audioMemory(environment: [String: String], standard: Int) throws -> Int {
        try size(audioMemoryVariable, environment: environment) ?? standard
    }

    /// The size in bytes `variable` gives (bytes, or with a `K`, `M` or `G` suffix), nil when it is unset or empty.
    static func size(_ variable: String, environment: [String: String]) throws -> Int? {
        guard let text = environment[variable], !text.isEmpty else { return nil }
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        let unit = text.last.flatMap { units[Character($0.uppercased())] }
        let digits = unit == nil ? Substring(text) : text.dropLast()
        guard let number = Int(digits), number >= 0, number <= Int.max / (unit ?? 1) else {
            throw UsageError("\(variable)=\(text) is not a size (bytes, or a number with K, M or G: 512M)")
        }
        return number * (unit ?? 1)
    }

    /// `--jobs` as a number, 1 or more; the cores this process may use when not given.
    ///
    /// - Throws: `UsageError` when the value is not a whole number of at least 1.
    public static func jobs(_ arguments: ParsedArguments) throws -> Int {
        guard let text = arguments.value(jobs.long) else { return ProcessInfo.processInfo.activeProcessorCount }
        guard let count = Int(text), count >= 1 else { throw UsageError("--jobs takes a whole number of at least 1") }
        return count
    }

    /// The phrase cache in front of `espeak`; nil with `--no-cache` or without a cache folder. A cache folder
    /// that cannot be written prints one warning on standard error and the run goes on uncached. Without
    /// `storesAudio` (commands that mix no audio) it writes only timings.
    public static func phraseCache(
        _ espeak: DeferredSynthesizer, arguments: ParsedArguments, context: CommandContext, storesAudio: Bool = true
    ) throws -> PhraseCache? {
        guard let folder = usedFolder(arguments, environment: context.environment) else { return nil }
        // Entries are written while the run goes on; `Earshot.main` waits for them before the process exits.
        return PhraseCache(
            base: espeak, identity: espeak.identity, folder: folder, limit: try limit(environment: context.environment),
            writesInBackground: true, storesAudio: storesAudio,
            warn: { [context] in context.printError("earshot: " + $0) })
    }
}

import EarshotSystem
import Foundation

/// `earshot cache [clear]`: where the phrase cache is and how full, or empty it.
///
/// `clear` removes only the files the cache writes (`phrases/*.phrase`, packs, remembered check runs in `results/`
/// and their temporary files), never anything else a user keeps in the folder, and the folders once empty.
public struct CacheCommand: Command {
    /// Creates the command.
    public init() {}

    public let signature = CommandSignature(
        name: "cache", summary: "Show the phrase cache's folder, entries and size, or clear it.",
        discussion: """
            Synthesized phrases (audio and word timings) are kept between runs, keyed by the text, the voice, \
            the text normalizer's version and espeak-ng's version, so a second `check` or `render` of the same \
            scripts synthesizes nothing. The folder is $EARSHOT_CACHE_DIR, else $XDG_CACHE_HOME/earshot, else \
            ~/.cache/earshot; $EARSHOT_CACHE_SIZE bounds it (default 512M), the least recently used phrases going \
            first. `check` also remembers whole runs: the same scripts, voices, command line, environment, executable \
            and espeak-ng replay the earlier output (`--rerun` runs them again). `--no-cache` on check, render, \
            compare, listen and samples leaves it alone (docs/cache.md).
            """,
        arguments: [
            ArgumentSpec(
                "action", arity: .optional, help: "clear: remove every cached phrase and remembered check run.")
        ],
        options: [],
        examples: ["cache", "cache clear", "check --no-cache Scripts/"])

    public func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        let action = arguments.argument("action")
        guard action == nil || action == "clear" else {
            throw UsageError("unknown action '\(action ?? "")': use 'earshot cache' or 'earshot cache clear'")
        }
        guard let folder = CacheOptions.phraseFolder(environment: context.environment) else {
            throw CommandFailure(
                "no cache folder: set \(CacheOptions.folderVariable), XDG_CACHE_HOME or HOME")
        }
        let limit = try CacheOptions.limit(environment: context.environment)
        let store = PhraseCache.Folder(path: folder, limit: limit)
        let results = CacheOptions.folder(environment: context.environment).map { ResultStore(cacheFolder: $0) }
        if action == "clear" {
            let removed = store.clear()
            let forgotten = results?.clear() ?? (files: 0, bytes: 0)
            context.print(
                "removed \(removed.files) cached phrase\(removed.files == 1 ? "" : "s") "
                    + "(\(PhraseCache.sizeText(removed.bytes))) from \(folder)")
            if let results, forgotten.files > 0 {
                context.print(
                    "removed \(forgotten.files) remembered check run\(forgotten.files == 1 ? "" : "s") "
                        + "(\(PhraseCache.sizeText(forgotten.bytes))) from \(results.folder)")
            }
            return ExitCode.success
        }
        let usage = store.usage()
        context.print("folder:  \(folder)")
        context.print("entries: \(usage.files)")
        context.print("size:    \(PhraseCache.sizeText(usage.bytes)) of \(PhraseCache.sizeText(limit))")
        if let results {
            let remembered = results.usage()
            context.print(
                "checks:  \(remembered.files) remembered run\(remembered.files == 1 ? "" : "s") "
                    + "(\(PhraseCache.sizeText(remembered.bytes)), at most \(results.limit)) in \(results.folder)")
        }
        return ExitCode.success
    }
}

import EarshotAudio
import EarshotCore
import EarshotReport
import EarshotScript

/// `earshot compare PATTERN | BEFORE AFTER -o OUT.wav`: the A/B file a designer plays in a meeting.
///
/// The file says "Before.", plays the before run, pauses 1.5 s, says "After." and plays the after run. A pattern
/// name (or folder) with several before/after pairs plays every pair in turn, each introduced by its name
/// ("Search. Before." … "After." …), 2.5 s apart; `--pair NAME` keeps one. Pairs are matched by file name:
/// `before-NAME` with `after-NAME`, or `before` with `after`.
public struct CompareCommand: Command {
    /// Creates the command.
    public init() {}

    public let signature = CommandSignature(
        name: "compare", summary: "Render before and after into one WAV file: \"Before.\" … \"After.\" …",
        discussion: """
            Give a pattern name (every before/after pair in Scripts/PATTERN, in turn; --pair picks one) or two \
            scripts. The .vtt transcript and .jsonl timeline (a segment line before each run) go beside the WAV.
            """,
        arguments: [ArgumentSpec("scripts", arity: .oneOrMore, help: "A pattern name or folder, or BEFORE AFTER.")],
        options: [
            RenderCommand.output,
            .value("pair", valueName: "name", help: "Only this pair of a pattern (e.g. search)."),
            ScenarioInputs.profileOption, ReaderOptions.reader, ReaderOptions.readers, VoiceOptions.voice,
            VoiceOptions.voices, CacheOptions.noCache, ReviewPageOptions.html,
            ReviewPageOptions.linkAudio,
        ],
        examples: [
            "compare announcement-spam -o out/announcement-spam.wav",
            "compare announcement-spam --pair search -o out/search.wav",
            "compare before.earshot after.earshot -o ab.wav",
            "compare --readers voiceover,talkback,nvda,speech-dispatcher search -o readers.wav --html readers.html",
        ])

    /// It speaks unless the phrase cache answers (then it never opens espeak-ng).
    public func speaks(_ arguments: ParsedArguments, context: CommandContext) -> Bool {
        CacheOptions.needsEspeak(arguments, environment: context.environment)
    }

    /// When it speaks, espeak-ng starts while its scripts are read.
    public func startsEngineEarly(_ arguments: ParsedArguments, context: CommandContext) -> Bool {
        speaks(arguments, context: context)
    }

    public func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        try RenderOutputs.runCommand(arguments, scripts: "scripts", context: context, render: Self.render)
    }

    /// Resolves the pairs the arguments name, runs them and renders the comparison (the `--html` hook calls this).
    public static func render(
        _ arguments: ParsedArguments, outputPath: String, context: CommandContext
    ) throws -> RenderedAudio {
        if let readers = try ReaderOptions.list(arguments) {
            return try renderReaders(readers, arguments, outputPath: outputPath, context: context)
        }
        let words = arguments.arguments("scripts")
        var pairs: [ScriptPair]
        switch words.count {
        case 1:
            pairs = ScriptPair.pairs(in: try ScenarioInputs.scriptPaths(words, context: context))
            guard !pairs.isEmpty else {
                throw CommandFailure("\(words[0]): no before/after pair of scripts (before-NAME with after-NAME)")
            }
        case 2:
            let paths = try ScenarioInputs.scriptPaths(words, context: context)
            guard paths.count == 2 else { throw UsageError("BEFORE and AFTER must each be one script") }
            pairs = [ScriptPair(name: "", before: paths[0], after: paths[1])]
        default:
            throw UsageError("compare takes a pattern name, or two scripts: BEFORE AFTER")
        }
        if let wanted = arguments.value("pair") {
            let known = pairs.map(\.name)
            pairs = pairs.filter { $0.name == wanted }
            guard !pairs.isEmpty else {
                throw UsageError("no pair '\(wanted)'; pairs here: \(known.joined(separator: ", "))")
            }
        }
        let documents = try ScenarioInputs.parse(pairs.flatMap { [$0.before, $0.after] })
        let speech = try ScenarioInputs.speech(arguments, context: context)
        let runs = try pairs.enumerated().map { index, pair in
            (
                name: pair.name,
                before: try ScenarioInputs.run(documents[2 * index], speech: speech, arguments: arguments),
                after: try ScenarioInputs.run(documents[2 * index + 1], speech: speech, arguments: arguments)
            )
        }
        let items = RenderOutputs.comparison(runs)
        return try RenderOutputs.render(items, to: outputPath, speech: speech, context: context)
    }
}

/// A before script and its after script.
public struct ScriptPair: Hashable, Sendable {
    /// The pair's name: `search` for before-search/after-search, empty for before/after.
    public var name: String
    /// The before script's path.
    public var before: String
    /// The after script's path.
    public var after: String

    /// Creates a pair.
    public init(name: String, before: String, after: String) {
        self.name = name
        self.before = before
        self.after = after
    }

    /// The pairs among `paths`, matched by file name in the same folder, in the order the before scripts come.
    public static func pairs(in paths: [String]) -> [ScriptPair] {
        func split(_ path: String) -> (folder: String, variant: String, name: String)? {
            let stem = PathText.stem(path)
            let folder = String(path.dropLast(path.split(separator: "/").last?.count ?? 0))
            for variant in ["before", "after"] {
                if stem == variant { return (folder, variant, "") }
                if stem.hasPrefix(variant + "-") { return (folder, variant, String(stem.dropFirst(variant.count + 1))) }
            }
            return nil
        }
        var pairs: [ScriptPair] = []
        for path in paths {
            guard let before = split(path), before.variant == "before" else { continue }
            let after = paths.first { candidate in
                guard let other = split(candidate) else { return false }
                return other.variant == "after" && other.folder == before.folder && other.name == before.name
            }
            if let after { pairs.append(ScriptPair(name: before.name, before: path, after: after)) }
        }
        return pairs
    }
}

import EarshotAudio
import EarshotCore
import EarshotReport
import EarshotScript

/// `earshot render SCRIPT -o OUT.wav`: hear one scenario: the timeline mixed to a WAV, with its WebVTT
/// transcript and JSON Lines timeline beside it.
///
/// The script runs on the same engine as `check`; the mix places each utterance's espeak-ng audio at its start
/// and cuts it at the exact sample where the engine interrupted it, adds earcons, app sounds and media narration
/// (in the narrator voice, ducked under VoiceOver). `OUT.vtt` and `OUT.jsonl` are written next to `OUT.wav`;
/// the three appear together or not at all.
public struct RenderCommand: Command {
    /// Creates the command.
    public init() {}

    /// `-o, --output <file.wav>`, shared with `compare`.
    static let output = OptionSpec.value(
        "output", short: "o", valueName: "file.wav",
        help: "The WAV to write; the .vtt transcript and .jsonl timeline go beside it.")

    public let signature = CommandSignature(
        name: "render", summary: "Render a scenario to a WAV file with its transcript.",
        discussion: """
            SCRIPT is a script file (or a pattern folder holding exactly one script). Speech is cut at the exact \
            sample where it was interrupted; the .vtt transcript marks each cut with — ✂ and what cut it.
            """,
        arguments: [ArgumentSpec("script", help: "The scenario script.")],
        options: [
            output, ScenarioInputs.profileOption, ReaderOptions.reader, VoiceOptions.voice, VoiceOptions.voices,
            CacheOptions.noCache,
            ReviewPageOptions.html,
            ReviewPageOptions.linkAudio,
        ],
        examples: [
            "render Scripts/announcement-spam/before-search.earshot -o out/before-search.wav",
            "render --profile sound-off Scripts/audio-only-task/after-voiceover.earshot -o out/sound-off.wav",
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
        try RenderOutputs.runCommand(arguments, scripts: "script", context: context, render: Self.render)
    }

    /// Runs the script the arguments name and renders it to `outputPath` (the `--html` hook calls this too).
    public static func render(
        _ arguments: ParsedArguments, outputPath: String, context: CommandContext
    ) throws -> RenderedAudio {
        let paths = try ScenarioInputs.scriptPaths(arguments.arguments("script"), context: context)
        guard paths.count == 1 else {
            throw UsageError(
                "render takes one script; \(arguments.arguments("script").joined()) holds \(paths.count)"
                    + " (use compare for a before/after pair)")
        }
        let documents = try ScenarioInputs.parse(paths)
        let speech = try ScenarioInputs.speech(arguments, context: context)
        let run = try ScenarioInputs.run(documents[0], speech: speech, arguments: arguments)
        let name = PathText.stem(paths[0])
        return try RenderOutputs.render([.run(name: name, run)], to: outputPath, speech: speech, context: context)
    }

    /// `Wrote out.wav (12.345s, 22050 Hz, 7 utterances heard, 6 cut) with out.vtt and out.jsonl`.
    static func summary(_ rendered: RenderedAudio) -> String {
        let records = rendered.segments.flatMap(\.run.timeline.heardUtterances)
        let cut = records.filter(\.wasInterrupted).count
        return "Wrote \(rendered.wavPath) (\(rendered.duration), \(rendered.sampleRate) Hz, \(records.count) "
            + "utterance\(records.count == 1 ? "" : "s") heard, \(cut) cut) with \(rendered.vttPath) and "
            + rendered.jsonLinesPath
    }
}

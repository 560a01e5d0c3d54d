import EarshotCore
import EarshotReport
import EarshotScript

extension CompareCommand {
    /// `compare --readers A,B,… SCRIPT…`: each script under each reader in turn, a spoken label ("TalkBack.")
    /// before each run; the review page shows the runs' lanes on one time scale, one picture per reader.
    static func renderReaders(
        _ readers: [ScreenReader], _ arguments: ParsedArguments, outputPath: String, context: CommandContext
    ) throws -> RenderedAudio {
        guard arguments.value(ReaderOptions.reader.long) == nil else {
            throw UsageError("use either --reader or --readers, not both")
        }
        guard arguments.value("pair") == nil else { throw UsageError("--pair compares before/after, not readers") }
        let paths = try ScenarioInputs.scriptPaths(arguments.arguments("scripts"), context: context)
        let documents = try ScenarioInputs.parse(paths)
        let speech = try ScenarioInputs.speech(arguments, context: context)
        var scripts: [(name: String, title: String, runs: [(reader: ScreenReader, run: ScenarioRun)])] = []
        for document in documents {
            let profile = try ScenarioInputs.profile(for: document, arguments: arguments)
            let runs = try readers.map { reader in
                (
                    reader,
                    try ScenarioInputs.run(
                        document, speech: speech, arguments: arguments, profile: profile.reading(with: reader))
                )
            }
            scripts.append((PathText.stem(document.path), document.header.title, runs))
        }
        let items = RenderOutputs.readers(scripts)
        return try RenderOutputs.render(items, to: outputPath, speech: speech, context: context)
    }
}

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
        var items: [RenderItem] = []
        for (scriptIndex, document) in documents.enumerated() {
            let profile = try ScenarioInputs.profile(for: document, arguments: arguments)
            if scriptIndex > 0 { items.append(.pause(pairGap)) }
            let scriptName = URLPath.stem(document.path)
            for (index, reader) in readers.enumerated() {
                let run = try ScenarioInputs.run(
                    document, speech: speech, arguments: arguments, profile: profile.reading(with: reader))
                if index > 0 { items.append(.pause(gap)) }
                let spoken = reader.spokenName + "."
                items.append(.label(documents.count > 1 && index == 0 ? "\(document.header.title). \(spoken)" : spoken))
                items.append(
                    .run(name: documents.count > 1 ? "\(scriptName) \(reader.displayName)" : reader.displayName, run))
            }
        }
        return try RenderOutputs.render(items, to: outputPath, speech: speech, context: context)
    }
}

extension ScreenReader {
    /// The name as a spoken label says it (espeak-ng reads "NVDA" letter by letter on its own).
    var spokenName: String {
        switch self {
        case .speechDispatcher: return "Speech dispatcher"
        default: return displayName
        }
    }
}

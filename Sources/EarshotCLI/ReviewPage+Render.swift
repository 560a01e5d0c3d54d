import EarshotCore
import EarshotScript

extension ReviewPage {
    /// `--html <file.html>` for `render` and `compare`: also write the review page.
    public static let htmlOption = OptionSpec.value(
        "html", valueName: "file.html",
        help: "Also write a self-contained review page: timeline picture, player, checks and transcript.")

    /// `--link-audio`: the page refers to the WAV beside it instead of embedding it (Samples/ keeps one copy).
    public static let linkAudioOption = OptionSpec.flag(
        "link-audio", help: "With --html: refer to the WAV by a relative path instead of embedding it.")

    /// The runs of a rendered file, each judged as `check` judges it, seeking into the file at its offset.
    public static func runs(of rendered: RenderedAudio) -> [Run] {
        rendered.segments.map { segment in
            let report = ScriptReport(
                run: segment.run, checks: CheckEvaluator(run: segment.run).evaluate(),
                findings: FindingRules.findings(in: segment.run.timeline))
            return Run(
                label: label(segment.name), report: report, wavPath: rendered.wavPath,
                audioOffset: segment.offset)
        }
    }

    /// Writes the review page of a render when the arguments ask for one (`--html`), and says where it went.
    ///
    /// - Throws: `AudioFileError` when the page cannot be written.
    public static func writeIfAsked(
        _ rendered: RenderedAudio, arguments: ParsedArguments, context: CommandContext
    ) throws {
        guard let path = arguments.value(htmlOption.long) else { return }
        var options = Options()
        if arguments.flag(linkAudioOption.long) { options.embedLimit = 0 }
        try write(runs: runs(of: rendered), to: path, options: options)
        context.print("Wrote \(path) (review page)")
    }

    /// `Before` for `before`, `Search before` for `search before`.
    static func label(_ segmentName: String) -> String {
        guard let first = segmentName.first else { return "Run" }
        return first.uppercased() + segmentName.dropFirst().replacingOccurrences(of: "-", with: " ")
    }
}

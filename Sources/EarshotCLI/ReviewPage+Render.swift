import EarshotAudio
import EarshotCore
import EarshotScript
import Foundation

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

    /// Stages the review page of a render when the arguments ask for one (`--html`), to be moved into place
    /// with the render's other files. The page reads the WAV from where it is staged and names its fingerprint.
    ///
    /// - Throws: `AudioFileError` when the page cannot be written.
    static func stageIfAsked(_ rendered: RenderedAudio, arguments: ParsedArguments) throws -> StagedFile? {
        guard let path = arguments.value(htmlOption.long) else { return nil }
        var options = Options(pageDirectory: URL(fileURLWithPath: path).deletingLastPathComponent().path)
        if arguments.flag(linkAudioOption.long) { options.embedLimit = 0 }
        options.stagedAudio = [rendered.wavPath: rendered.wavContentsPath]
        options.audioFingerprint = rendered.fingerprint
        return try StagedFile(path: path, text: html(runs: runs(of: rendered), options: options))
    }

    /// `Before` for `before`, `Search before` for `search before`.
    static func label(_ segmentName: String) -> String {
        guard let first = segmentName.first else { return "Run" }
        return first.uppercased() + segmentName.dropFirst().replacingOccurrences(of: "-", with: " ")
    }
}

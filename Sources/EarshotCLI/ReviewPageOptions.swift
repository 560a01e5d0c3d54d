import EarshotAudio
import EarshotReport

/// The review page's command-line options for `render` and `compare`.
enum ReviewPageOptions {
    /// `--html <file.html>` for `render` and `compare`: also write the review page.
    static let html = OptionSpec.value(
        "html", valueName: "file.html",
        help: "Also write a self-contained review page: timeline picture, player, checks and transcript.")

    /// `--link-audio`: the page refers to the WAV beside it instead of embedding it (Samples/ keeps one copy).
    static let linkAudio = OptionSpec.flag(
        "link-audio", help: "With --html: refer to the WAV by a relative path instead of embedding it.")

    /// Stages the review page of a render when the arguments ask for one (`--html`).
    ///
    /// - Throws: `OutputFileError` when the page cannot be written.
    static func stageIfAsked(_ rendered: RenderedAudio, arguments: ParsedArguments) throws -> StagedFile? {
        guard let path = arguments.value(html.long) else { return nil }
        return try ReviewPage.stage(rendered, at: path, linkingAudio: arguments.flag(linkAudio.long))
    }
}

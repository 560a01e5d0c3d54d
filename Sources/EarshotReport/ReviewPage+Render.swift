import EarshotAudio
import EarshotCore
import EarshotScript
import Foundation

extension ReviewPage {
    /// The runs of a rendered file, each with the report made once for it, seeking into the file at its offset.
    public static func runs(of rendered: RenderedAudio) -> [Run] {
        rendered.segments.map { segment in
            Run(
                label: label(segment.name), report: RunReport(run: segment.run), wavPath: rendered.wavPath,
                audioOffset: segment.offset)
        }
    }

    /// Stages the review page of a render at `path`, to be moved into place with the render's other files. The
    /// page reads the WAV from where it is staged and names its fingerprint; `linkingAudio` refers to the WAV
    /// beside the page instead of embedding it.
    ///
    /// - Throws: `OutputFileError` when the page cannot be written.
    public static func stage(_ rendered: RenderedAudio, at path: String, linkingAudio: Bool) throws -> StagedFile {
        var options = Options(pageDirectory: URL(fileURLWithPath: path).deletingLastPathComponent().path)
        if linkingAudio { options.embedLimit = 0 }
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

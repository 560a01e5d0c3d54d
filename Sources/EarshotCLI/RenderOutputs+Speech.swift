import EarshotAudio
import EarshotCore
import EarshotReport
import EarshotSystem
import Foundation

extension RenderOutputs {
    /// True inside ``runCommand(_:scripts:context:render:)``: ``render(_:to:speech:context:progressTitle:)``
    /// then leaves its files staged, for the review page to join them before they are published.
    @TaskLocal static var defersPublishing = false

    /// The voice media narration is spoken in: `narrator` from the Voices folder, else the default voice.
    static func narratorVoice(_ speech: ScenarioInputs.Speech) -> VoiceProfile {
        if let library = speech.library, let narrator = try? library.profile(named: "narrator"),
            (try? speech.synthesizer.validate(narrator)) != nil
        {
            return narrator
        }
        return labelVoice(speech)
    }

    /// The voice labels are spoken in: `default` from the Voices folder, else the built-in standard voice.
    static func labelVoice(_ speech: ScenarioInputs.Speech) -> VoiceProfile {
        (try? speech.library?.profile(named: VoiceProfile.standard.name)) ?? .standard
    }

    /// Mixes `items` into `wavPath` with the process's voices and the `Sounds` folder beside `Scripts`, with a
    /// progress line on a terminal, and moves the files into place (unless ``defersPublishing``).
    ///
    /// - Throws: `OutputFileError`, synthesis errors; no output is left behind then.
    @discardableResult
    static func render(
        _ items: [RenderItem], to wavPath: String, speech: ScenarioInputs.Speech, context: CommandContext,
        progressTitle: String? = nil
    ) throws -> RenderedAudio {
        let soundsDirectory = ScenarioInputs.scriptsFolder().map { PathText.folder(of: $0) + "/Sounds" }
        let progress = RenderProgress(
            title: progressTitle ?? wavPath, rate: speech.speech.sampleRate, environment: context.environment,
            writeError: context.writeError)
        defer { progress.finish() }
        var rendered = try stage(
            items, to: wavPath, speech: speech.speech,
            voices: Voices(label: labelVoice(speech), narrator: { narratorVoice(speech) }),
            soundsDirectory: soundsDirectory, progress: progress.update)
        if !defersPublishing { try rendered.publish() }
        return rendered
    }
}

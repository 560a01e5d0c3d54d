import EarshotAudio
import EarshotCore
import EarshotReport
import EarshotScript
import EarshotSystem
import Foundation

extension SamplesCommand {
    /// Renders scripts in this process exactly as `earshot render SCRIPT -o WAV --html PAGE --link-audio` renders
    /// them when run from the folder that holds `Scripts/`: the outputs name the script as `Scripts/PATTERN/NAME…`
    /// (the same on every machine and clone), and the voices and sounds are the ones found from that folder.
    ///
    /// One engine and one phrase cache serve every script, from several threads at once (``ParallelRuns``), and the
    /// engine starts once, not once per script. Each render has a phrase library of its own (``SpeechLibrary``),
    /// so the audio it keeps (in memory up to the bound, and beyond it in a nameless temporary file) is let go when
    /// it is done, as when each script was rendered by a process of its own: the memory and temporary space a
    /// folder takes stay those of its largest script, whatever the number of scripts. A phrase's audio does not
    /// depend on what was synthesized before it, so none of this changes a byte.
    final class Renderer: @unchecked Sendable {
        /// The folder the outputs' script paths are relative to: the nearest one above the scripts that holds
        /// `Scripts/` (`/` when none does: the paths are then whole).
        let base: String
        /// A render's arguments: the voices folder found from ``base`` and `--no-cache`.
        let arguments: ParsedArguments
        /// The voices, engine and phrase cache every render uses; each render takes its own phrase library.
        let speech: ScenarioInputs.Speech
        let soundsDirectory: String?
        /// Makes the outputs' folders, unless an interrupt is taking back what the run wrote.
        let folders: FolderGate

        /// Where the scripts under `root` render from: the folder that holds `Scripts/` above them (``base``), and the
        /// voices folder found from there (`--voices`, else `$EARSHOT_VOICES` taken from there, else the nearest
        /// `Voices/` above it, else the executable's), as a whole path; nil when there is none.
        static func place(root: String, arguments samples: ParsedArguments, context: CommandContext) -> (
            base: String, voices: String?
        ) {
            var base = root
            let manager = FileManager.default
            while base != "/", !manager.fileExists(atPath: base + "/Scripts") { base = PathText.folder(of: base) }
            let explicit = samples.value(VoiceOptions.voices.long).map {
                PathText.standardized($0, in: manager.currentDirectoryPath)
            }
            let voices = VoiceLibrary.locateDirectory(
                explicit: explicit, environment: context.environment, currentDirectory: base
            ).map { PathText.standardized($0, in: base) }
            return (base, voices)
        }

        /// Sets up the engine for rendering from `place` (``place(root:arguments:context:)``) with `samples`'
        /// options.
        init(
            place: (base: String, voices: String?), folders: FolderGate, arguments samples: ParsedArguments,
            context: CommandContext
        ) throws {
            self.folders = folders
            base = place.base
            arguments = ParsedArguments(
                command: "render", options: place.voices.map { [VoiceOptions.voices.long: [$0]] } ?? [:],
                flags: samples.flag(CacheOptions.noCache.long) ? [CacheOptions.noCache.long] : [])
            var speech = try ScenarioInputs.speech(arguments, context: context)
            speech.documentFolder = base
            self.speech = speech
            soundsDirectory = ScenarioInputs.scriptsFolder(from: base).map { PathText.folder(of: $0) + "/Sounds" }
        }

        /// The script's path as the outputs show it: relative to ``base``.
        func shown(_ script: String) -> String {
            script.hasPrefix(base + "/") ? String(script.dropFirst(base.count + 1)) : script
        }

        /// Renders `script` to `wav` with its transcript, timeline and review page (linking the WAV), all moved
        /// into place together; the folder is made first.
        func render(_ script: String, to wav: String) throws {
            let html = String(wav.dropLast(4)) + ".html"
            guard let bytes = FileManager.default.contents(atPath: script) else {
                throw CommandFailure("\(script): cannot read the script")
            }
            let document: ScenarioDocument
            do {
                document = try ScenarioParser.parse(bytes: [UInt8](bytes), path: shown(script))
            } catch {
                throw CommandFailure.diagnostics(error.description)
            }
            try folders.make(PathText.folder(of: wav))
            do {
                try RenderOutputs.checkOutputs(wav: wav, html: html, inputs: [script])
            } catch let error as UsageError {
                throw CommandFailure("rendering \(script): \(error.message)")
            }
            var speech = self.speech
            speech.speech = self.speech.speech.emptyCopy()
            let run = try ScenarioInputs.run(document, speech: speech, arguments: arguments)
            var rendered = try RenderOutputs.stage(
                [.run(name: PathText.stem(script), run)], to: wav, speech: speech.speech,
                voices: RenderOutputs.Voices(
                    label: RenderOutputs.labelVoice(speech), narrator: { RenderOutputs.narratorVoice(speech) }),
                soundsDirectory: soundsDirectory)
            let page = try ReviewPage.stage(rendered, at: html, linkingAudio: true)
            try rendered.publish(with: [page])
        }
    }

    /// Where the renders make their folders. An interrupt closes it before it takes back what the run wrote, so that
    /// no render, still running on its thread until the process ends, makes a folder behind the take-back: an empty
    /// folder left there would make the next run refuse the samples folder as not its own.
    final class FolderGate: @unchecked Sendable {
        private let lock = NSLock()
        private var closed = false

        /// No folder is made from now on.
        func close() { lock.withLock { closed = true } }

        /// Makes `folder` (and the folders above it) unless the gate is closed; then it waits for the interrupt to
        /// end the process.
        func make(_ folder: String) throws {
            let made = try lock.withLock { () throws -> Bool in
                guard !closed else { return false }
                try OutputFolders.create(folder)
                return true
            }
            guard made else {
                InterruptCleanup.yieldToARunningInterrupt()
                throw CancellationError()
            }
        }
    }
}

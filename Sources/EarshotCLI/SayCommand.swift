import EarshotAudio
import EarshotCore
import EarshotSystem

/// `earshot say TEXT...`: speaks text with a voice profile, aloud through ALSA or into a WAV file.
///
/// The text goes through the same normalization and pronunciations as every utterance of a run
/// (`SpeechLibrary.speechText(for:voice:)`); `--show-text` prints what espeak-ng would be given and speaks nothing.
///
/// With `-o FILE.wav` the audio is written atomically (a hidden temporary renamed into place, so a
/// failure never leaves a partial file). Without it the audio plays on `--device` (ALSA's `default`
/// unless given); when the device cannot be opened the error names the device and ALSA's reason and
/// suggests `-o`, with status 1.
public struct SayCommand: Command {
    /// Creates the command.
    public init() {}

    public let signature = CommandSignature(
        name: "say", summary: "Speak text aloud, or into a WAV file with -o.",
        discussion: """
            The words are joined with spaces, normalized as a screen reader reads them ("$12.00" → "12 dollars", \
            see docs/speech-text.md) and with the Voices folder's pronunciations, then spoken literally by espeak-ng \
            (no markup). --show-text prints that text instead of speaking it.
            """,
        arguments: [ArgumentSpec("text", arity: .oneOrMore, help: "The words to speak.")],
        options: [
            VoiceOptions.voice,
            .flag("show-text", help: "Print the text espeak-ng would be given, without speaking."),
            .value(
                "output", short: "o", valueName: "file.wav", help: "Write a 16-bit mono WAV file instead of playing."),
            .value("device", valueName: "name", help: "ALSA playback device.", defaultValue: "default"),
            VoiceOptions.voices,
        ],
        examples: [
            "say Hello, world",
            "say --voice expert -o hello.wav Hello, world",
            "say --device null -- -5 degrees outside",
            "say --show-text 'Shipping $12.00. Total $61.99.'",
        ])

    public func speaks(_ arguments: ParsedArguments, context: CommandContext) -> Bool { true }

    /// espeak-ng starts while the voice profile is read.
    public func startsEngineEarly(_ arguments: ParsedArguments, context: CommandContext) -> Bool { true }

    public func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        let posted = arguments.arguments("text").joined(separator: " ")
        guard posted.contains(where: { !$0.isWhitespace }) else {
            throw UsageError("nothing to say: <text> is empty")
        }
        let (profile, synthesizer) = try VoiceOptions.resolve(arguments, context: context)
        let pronunciations = try VoiceOptions.pronunciations(arguments, context: context)
        let text = SpeechLibrary(synthesizer: synthesizer, audioCacheLimit: 0, pronunciations: pronunciations)
            .speechText(for: posted, voice: profile).spoken
        if arguments.flag("show-text") {
            context.print(text)
            return ExitCode.success
        }

        if let output = arguments.value("output") {
            // Created before synthesis so an unwritable folder fails at once; removed on any failure.
            let writer = try WAVWriter(path: output, sampleRate: synthesizer.sampleRate)
            // Streamed chunk by chunk: a book-length text never sits in memory whole.
            var writeError: (any Error)?
            _ = try synthesizer.synthesize(text, voice: profile, frameLimit: nil) { chunk, _ in
                do {
                    try writer.append(chunk)
                    return true
                } catch {
                    writeError = error
                    return false
                }
            }
            if let writeError { throw writeError }
            try writer.finish()
            let duration = TimeSpan.frames(writer.frameCount, rate: synthesizer.sampleRate)
            context.print("Wrote \(output): \(duration), \(synthesizer.sampleRate) Hz, voice \(profile.name)")
            return ExitCode.success
        }

        let deviceName = arguments.value("device") ?? "default"
        let device: PCMDevice
        do {
            device = try PCMDevice(device: deviceName, sampleRate: synthesizer.sampleRate)
        } catch {
            throw CommandFailure(Self.noDeviceMessage(deviceName, error: error, text: posted))
        }
        guard device.sampleRate == synthesizer.sampleRate else {
            throw CommandFailure(
                "audio device '\(deviceName)' plays at \(device.sampleRate) Hz, not espeak-ng's "
                    + "\(synthesizer.sampleRate) Hz; choose a device through ALSA's plug layer (e.g. plughw:0)")
        }
        let speech = try synthesizer.synthesize(text, voice: profile)
        do {
            try device.play(speech.samples)
        } catch {
            throw CommandFailure("playback on audio device '\(deviceName)' failed: \(error.message)")
        }
        return ExitCode.success
    }

    /// `cannot open audio device 'X': No such file or directory` plus the `-o` suggestion.
    static func noDeviceMessage(_ device: String, error: ALSAError, text: String) -> String {
        var message = "cannot open audio device '\(device)': \(error.message)"
        if !error.detail.isEmpty { message += " (ALSA: \(error.detail))" }
        let words = text.split(separator: " ").prefix(4).joined(separator: " ")
        let quoted = words.contains("'") ? words : "'\(words)\(text.count > words.count ? " …" : "")'"
        return message + "\n"
            + "No sound card here? Write a WAV file instead: earshot say -o speech.wav \(quoted)\n"
            + "(or choose another device with --device; `aplay -L` lists them)"
    }
}

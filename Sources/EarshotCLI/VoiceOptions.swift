import EarshotCore
import EarshotSystem

/// The `--voice` and `--voices` options every speaking command shares, and how they resolve.
///
/// An unknown `--voice` name is a usage error (status 64): it is a bad value on the command line,
/// and the message lists the known profiles. A malformed `.voice` file is a bad input file like a
/// malformed script (status 2, `path:line:col: error: …`); a missing Voices folder is a runtime failure (1).
public enum VoiceOptions {
    /// `--voice <name>`: the profile to speak with.
    public static let voice = OptionSpec.value(
        "voice", valueName: "name", help: "Voice profile to speak with (see 'earshot voices').",
        defaultValue: VoiceProfile.standard.name)

    /// `--voices <dir>`: the folder of `*.voice` profiles.
    public static let voices = OptionSpec.value(
        "voices", valueName: "dir",
        help: "Folder of *.voice profiles (default: $EARSHOT_VOICES, else the nearest Voices/ folder).")

    /// The voice library named by `--voices`, `$EARSHOT_VOICES` or found by walking up.
    ///
    /// - Throws: `VoiceLibraryError` (not found, unreadable, malformed file).
    public static func library(_ arguments: ParsedArguments, context: CommandContext) throws -> VoiceLibrary {
        guard
            let directory = VoiceLibrary.locateDirectory(
                explicit: arguments.value(voices.long), environment: context.environment)
        else { throw VoiceLibraryError.notFound }
        return try VoiceLibrary(directory: directory)
    }

    /// The profile named by `--voice` (default `default`) in `library`.
    ///
    /// - Throws: `UsageError` listing the known voices when no profile has the name.
    public static func profile(_ arguments: ParsedArguments, in library: VoiceLibrary) throws -> VoiceProfile {
        let name = arguments.value(voice.long) ?? VoiceProfile.standard.name
        do {
            return try library.profile(named: name)
        } catch {
            throw UsageError(error.description)
        }
    }

    /// The profile and synthesizer a speaking command uses.
    ///
    /// When neither `--voice` nor `--voices` is given and no Voices folder can be found (earshot run
    /// outside the package with `EARSHOT_VOICES` unset), falls back to the built-in
    /// `VoiceProfile.standard` with the system espeak-ng data, so `earshot say hello` works anywhere.
    ///
    /// - Throws: `UsageError` for an unknown voice, `VoiceLibraryError`, `EspeakError`.
    public static func resolve(_ arguments: ParsedArguments, context: CommandContext) throws -> (
        profile: VoiceProfile, synthesizer: EspeakSynthesizer
    ) {
        let found = VoiceLibrary.locateDirectory(
            explicit: arguments.value(voices.long), environment: context.environment)
        if found == nil, arguments.value(voice.long) == nil {
            return (VoiceProfile.standard, try EspeakSynthesizer.shared(voicesDirectory: nil))
        }
        let library = try Self.library(arguments, context: context)
        let profile = try Self.profile(arguments, in: library)
        let synthesizer = try Self.synthesizer(for: library)
        try library.validate(profile, with: synthesizer)
        return (profile, synthesizer)
    }

    /// The pronunciations of the Voices folder `--voices`, `$EARSHOT_VOICES` or walking up finds; none without one.
    ///
    /// - Throws: `VoiceLibraryError` for a malformed folder or pronunciation file.
    public static func pronunciations(_ arguments: ParsedArguments, context: CommandContext) throws
        -> PronunciationDictionary
    {
        guard
            let directory = VoiceLibrary.locateDirectory(
                explicit: arguments.value(voices.long), environment: context.environment)
        else { return .empty }
        return try VoiceLibrary(directory: directory).pronunciations
    }

    /// The process's espeak-ng synthesizer, with the library's custom variants.
    ///
    /// - Throws: `EspeakError`.
    public static func synthesizer(for library: VoiceLibrary) throws -> EspeakSynthesizer {
        try EspeakSynthesizer.shared(voicesDirectory: library.directory)
    }
}

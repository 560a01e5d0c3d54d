import EarshotCore

/// Why espeak-ng could not start, could not take a voice, or could not speak.
///
/// Every message names what was asked for and what to do about it, so a CLI can print it as is.
public enum EspeakError: Error, Equatable, CustomStringConvertible {
    /// The espeak-ng library could not be opened (not installed, or not an espeak-ng library).
    case libraryUnavailable(library: String, reason: String)
    /// espeak-ng's initialization returned a failure status.
    case initializationFailed(dataPath: String?, code: Int, message: String)
    /// The private data folder (system data plus Earshot's custom variants) could not be built.
    case dataFolderUnavailable(path: String, reason: String)
    /// espeak-ng was already initialized in this process with other custom variants.
    case alreadyInitialized(requested: String, current: String)
    /// No espeak-ng voice has this name.
    case unknownVoice(voice: String, profile: String)
    /// A voice or variant name that is never given to espeak-ng (see ``EspeakName``).
    case invalidName(name: String, kind: EspeakName.Kind, profile: String, problem: EspeakName.Problem)
    /// No espeak-ng variant has this name (espeak-ng itself would silently ignore it).
    case unknownVariant(variant: String, profile: String, known: [String])
    /// A profile value is outside the range espeak-ng handles exactly.
    case valueOutOfRange(name: String, value: Int, allowed: ClosedRange<Int>, profile: String)
    /// espeak-ng rejected a call while speaking.
    case synthesisFailed(operation: String, code: Int, message: String)

    public var description: String {
        switch self {
        case .libraryUnavailable(let library, let reason):
            return "cannot load the espeak-ng library \(library): \(reason). Install it with "
                + "`apt-get install libespeak-ng1` (the README's commands do), or set EARSHOT_ESPEAK_LIBRARY to its path."
        case .initializationFailed(let dataPath, let code, let message):
            return "espeak-ng failed to initialize with data \(dataPath ?? "(system default)"): \(message) "
                + "(status 0x\(String(code, radix: 16))). Install it with `apt-get install espeak-ng libespeak-ng-dev`."
        case .dataFolderUnavailable(let path, let reason):
            return "cannot prepare the espeak-ng data folder \(path): \(reason)"
        case .alreadyInitialized(let requested, let current):
            return "espeak-ng is already running in this process with voices from \(current); it can be "
                + "initialized only once, so the voices from \(requested) cannot be loaded. Use one Voices folder per process."
        case .unknownVoice(let voice, let profile):
            return "voice profile '\(profile)': espeak-ng has no voice '\(voice)' "
                + "(`espeak-ng --voices` lists them, e.g. en-us, en-gb)"
        case .invalidName(let name, let kind, let profile, let problem):
            let shown = name.count > 40 ? String(name.prefix(40)) + "…" : name
            return "voice profile '\(profile)': invalid espeak-ng \(kind.rawValue) name '\(shown)': \(problem)"
        case .unknownVariant(let variant, let profile, let known):
            let sample = known.prefix(12).joined(separator: ", ")
            return "voice profile '\(profile)': espeak-ng has no variant '\(variant)'. "
                + "Known variants include: \(sample)\(known.count > 12 ? ", …" : ""). "
                + "Custom variants go in Voices/variants/."
        case .valueOutOfRange(let name, let value, let allowed, let profile):
            return
                "voice profile '\(profile)': \(name) \(value) is outside \(allowed.lowerBound)...\(allowed.upperBound)"
        case .synthesisFailed(let operation, let code, let message):
            return "espeak-ng \(operation) failed: \(message) (status 0x\(String(code, radix: 16)))"
        }
    }
}

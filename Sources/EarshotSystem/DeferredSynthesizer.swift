import CEarshot
import EarshotCore
import Foundation

/// The process's espeak-ng synthesizer, started only when a phrase or a voice check needs it.
///
/// Starting espeak-ng costs a run tens of milliseconds (a private data folder for the custom variants, loading
/// the voice data, a helper process). A run answered entirely from the phrase cache needs none of it, so this
/// stands in for ``EspeakSynthesizer``: it knows what the cache's key needs without starting espeak-ng
/// (``identity``: the library's version, the variants' fingerprint, the sample rate), and calls
/// ``EspeakSynthesizer/shared(voicesDirectory:)`` the first time it must speak. Its errors are the shared
/// synthesizer's, thrown then.
public final class DeferredSynthesizer: Synthesizer, @unchecked Sendable {
    /// The sample rate espeak-ng 1.51's voices speak at; checked when espeak-ng starts.
    public static let expectedSampleRate = 22_050

    /// The Voices folder whose variants espeak-ng is started with (nil: located the usual way).
    public let voicesDirectory: String?
    /// What the phrase cache keys on, known without starting espeak-ng.
    public let identity: PhraseCache.Identity

    private let lock = NSLock()
    private var started: EspeakSynthesizer?

    /// A stand-in for the synthesizer with the variants of `voicesDirectory`. With `versionFolder` (the phrase
    /// folder) the library's version comes from the ``EngineStamp`` there when it still holds, so a run answered
    /// from the cache never opens the library; without it the library is opened to read its version.
    public init(voicesDirectory: String?, versionFolder: String? = nil) {
        self.voicesDirectory = voicesDirectory
        identity = PhraseCache.Identity(
            engineVersion: versionFolder.map { EngineStamp.version(rememberedIn: $0) } ?? Self.libraryVersion(),
            normalizerVersion: TextNormalizer.version,
            variantsFingerprint: EspeakDataFolder.variantsFingerprint(voicesDirectory: voicesDirectory),
            sampleRate: Self.expectedSampleRate)
    }

    /// Frames per second: espeak-ng's rate, checked against the real one when it starts.
    public var sampleRate: Int { Self.expectedSampleRate }

    /// The shared synthesizer, started on the first call.
    ///
    /// - Throws: `EspeakError` from starting espeak-ng, or when it speaks at another rate than
    ///   ``expectedSampleRate`` (a phrase cache filed under that rate would be wrong).
    public func synthesizer() throws(EspeakError) -> EspeakSynthesizer {
        lock.lock()
        defer { lock.unlock() }
        if let started { return started }
        let shared = try EspeakSynthesizer.shared(voicesDirectory: voicesDirectory)
        guard shared.sampleRate == Self.expectedSampleRate else {
            throw .initializationFailed(
                dataPath: shared.dataPath, code: 0,
                message: "espeak-ng speaks at \(shared.sampleRate) Hz; Earshot expects \(Self.expectedSampleRate) Hz")
        }
        started = shared
        return shared
    }

    /// True once espeak-ng has been started through this stand-in.
    public var hasStarted: Bool { lock.withLock { started != nil } }

    /// Speaks through the shared synthesizer, starting it first when needed.
    public func synthesize(_ text: String, voice: VoiceProfile, frameLimit: Int?) throws -> SynthesizedSpeech {
        try synthesizer().synthesize(text, voice: voice, frameLimit: frameLimit)
    }

    /// The espeak-ng library's version; needs no initialization, but opens the library (waiting for an opening
    /// already under way). Empty when it cannot be opened: nothing in the phrase cache matches then, and the
    /// first phrase synthesized reports why.
    public static func libraryVersion() -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        earshot_espeak_version(&buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension DeferredSynthesizer {
    /// What identifies the data espeak-ng would speak with for `voicesDirectory`: the custom variants and the
    /// system data folder (``PhraseCache/Identity/variantsFingerprint``), without starting espeak-ng.
    public static func dataFingerprint(voicesDirectory: String?) -> String {
        EspeakDataFolder.variantsFingerprint(voicesDirectory: voicesDirectory)
    }
}

extension EspeakDataFolder {
    /// The fingerprint ``EspeakSynthesizer/variantsFingerprint`` has for `voicesDirectory`, computed from the
    /// files alone (empty when espeak-ng's data is not found).
    static func variantsFingerprint(voicesDirectory: String?) -> String {
        let directory = voicesDirectory ?? VoiceLibrary.locateDirectory(explicit: nil)
        let variants = customVariantFiles(in: directory)
        guard let system = systemDataPath() else { return "" }
        return fingerprint(of: variants, systemPath: system)
    }
}

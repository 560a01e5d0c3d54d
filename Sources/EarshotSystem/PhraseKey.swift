import EarshotCore

/// What a cached phrase is filed under: everything that changes the audio a synthesizer gives for a text.
///
/// Two keys are equal exactly when the synthesizer would be given the same text with the same audible voice by
/// the same engine: the text as the synthesizer receives it (normalized, pronunciations applied), every voice
/// profile field that changes audio (espeak-ng voice, variant, rate, pitch, volume, word gap; not the profile's
/// name or description), the normalizer's version, the engine's version, the custom variants' fingerprint, the
/// sample rate and the cache's format version. The key is stored inside each entry and compared on read, so a
/// collision of file names is a miss, never wrong audio.
public struct PhraseKey: Hashable, Sendable {
    /// The text given to the synthesizer.
    public var text: String
    /// The voice it is spoken with.
    public var voice: VoiceProfile
    /// The synthesizer's identity.
    public var identity: PhraseCache.Identity
    /// What the entry records.
    public var purpose: Purpose
    /// More of what the entry depends on, one `name value` line each (a timing's posted text and alignment).
    public var details: [String]

    /// What an entry records.
    public enum Purpose: String, Sendable {
        /// The synthesizer's answer for the text.
        case phrase
        /// That the synthesizer accepted the voice (its names and values); the text is empty.
        case voiceCheck = "voice-check"
        /// The timing the speech library aligned from the synthesizer's answer for the text (no audio).
        case timing
    }

    /// Creates a key.
    public init(
        text: String, voice: VoiceProfile, identity: PhraseCache.Identity, purpose: Purpose = .phrase,
        details: [String] = []
    ) {
        self.text = text
        self.voice = voice
        self.identity = identity
        self.purpose = purpose
        self.details = details
    }

    /// The key of the timing of `speechText` spoken by `voice`: the text given to the synthesizer, and besides the
    /// phrase's components the posted text, how its pieces map to the spoken ones, and the alignment's version.
    public static func timing(of speechText: SpeechText, voice: VoiceProfile, identity: PhraseCache.Identity)
        -> PhraseKey
    {
        let pieces = speechText.pieces.map {
            "\($0.posted.lowerBound)-\($0.posted.upperBound):\($0.spoken.lowerBound)-\($0.spoken.upperBound)"
                + ($0.isVerbatim ? "=" : "~")
        }
        return PhraseKey(
            text: speechText.spoken, voice: voice, identity: identity, purpose: .timing,
            details: [
                "alignment \(WordAlignment.version)", "pieces \(pieces.joined(separator: " "))",
                "posted \(speechText.posted)",
            ])
    }

    /// The key as the bytes stored in an entry: one `name value` line per component, the text last.
    public var canonical: String {
        // One string appended to, not lines joined: every phrase's lookups and stores build it.
        var lines = "format "
        lines.reserveCapacity(192 + text.utf8.count + details.reduce(0) { $0 + $1.utf8.count + 1 })
        lines += String(PhraseCache.formatVersion)
        lines += "\npurpose " + purpose.rawValue
        lines += "\nengine " + identity.engineVersion
        lines += "\nnormalizer " + String(identity.normalizerVersion)
        lines += "\nvariants " + identity.variantsFingerprint
        lines += "\nsample-rate " + String(identity.sampleRate)
        lines += "\nvoice " + voice.espeakVoice
        lines += "\nvariant " + (voice.variant ?? "")
        lines += "\nrate " + String(voice.rate)
        lines += "\npitch " + String(voice.pitch)
        lines += "\nvolume " + String(voice.volume)
        lines += "\nword-gap " + String(voice.wordGap)
        for detail in details { lines += "\n" + detail }
        lines += "\ntext " + text
        return lines
    }

    /// The entry's file name: 32 hexadecimal digits (``ContentHash`` of the canonical key) and the `.phrase`
    /// extension.
    public var fileName: String { Self.fileName(of: canonical) }

    /// ``canonical`` and ``fileName``, the key built once: a lookup or a store needs both.
    public var filing: (canonical: String, fileName: String) {
        let canonical = canonical
        return (canonical, Self.fileName(of: canonical))
    }

    private static func fileName(of canonical: String) -> String {
        ContentHash.of(Array(canonical.utf8)) + "." + PhraseCache.entryExtension
    }
}

/// The 64-bit FNV-1a hash: file names and entry checksums (not for security: the cache is the user's own).
enum FNV1a {
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01b3

    static func hash(_ bytes: some Sequence<UInt8>, seed: UInt64) -> UInt64 {
        var hash = seed
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* prime
        }
        return hash
    }

    /// An entry's checksum: FNV-1a over 8-byte little-endian words (then the remaining bytes one by one), with a
    /// shift after each word so high bits reach low ones; eight times faster than byte by byte on a phrase's samples.
    static func checksum(_ buffer: UnsafeRawBufferPointer) -> UInt64 {
        var hash = offsetBasis
        let words = buffer.count / 8
        for index in 0..<words {
            hash ^= UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self))
            hash = hash &* prime
            hash ^= hash >> 32
        }
        for byte in buffer[(words * 8)...] {
            hash ^= UInt64(byte)
            hash = hash &* prime
        }
        return hash
    }
}

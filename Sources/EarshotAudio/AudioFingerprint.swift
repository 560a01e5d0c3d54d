/// A short fingerprint of a WAV's samples: `fnv1a64:0123456789abcdef:FRAMES`.
///
/// A render writes its WAV's fingerprint into every companion file (the `.vtt` transcript, the `.jsonl`
/// timeline, the review page), so a reader can tell the files belong to one render: after a process was
/// killed between two of its renames, the fingerprints disagree and `earshot verify` says which file is from
/// another render. It is the 64-bit FNV-1a hash of the samples as stored (16-bit little-endian) and their count:
/// cheap to compute while streaming, the same for the same audio on every machine, and not a security measure.
public struct AudioFingerprint: Hashable, Sendable, CustomStringConvertible {
    private static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The hash so far.
    public private(set) var hash: UInt64 = offsetBasis
    /// Frames hashed so far.
    public private(set) var frameCount = 0

    /// An empty fingerprint (no frames).
    public init() {}

    /// The fingerprint of `samples`.
    public init(samples: some Collection<Int16>) {
        update(samples)
    }

    /// Parses `fnv1a64:HEX:FRAMES`; nil for anything else.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "fnv1a64", parts[1].count == 16,
            let hash = UInt64(parts[1], radix: 16), let frames = Int(parts[2]), frames >= 0
        else { return nil }
        self.hash = hash
        self.frameCount = frames
    }

    /// Adds frames.
    public mutating func update(_ samples: some Collection<Int16>) {
        var value = hash
        for sample in samples {
            let bits = UInt16(bitPattern: sample)
            value = (value ^ UInt64(bits & 0xFF)) &* Self.prime
            value = (value ^ UInt64(bits >> 8)) &* Self.prime
        }
        hash = value
        frameCount += samples.count
    }

    /// `fnv1a64:0123456789abcdef:FRAMES`.
    public var description: String {
        let hex = String(hash, radix: 16)
        return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex + ":\(frameCount)"
    }
}

/// A short fingerprint of a WAV's samples: `fnv1a64x4:0123456789abcdef:FRAMES`.
///
/// A render writes its WAV's fingerprint into every companion file (the `.vtt` transcript, the `.jsonl`
/// timeline, the review page), so a reader can tell the files belong to one render: after a process was
/// killed between two of its renames, the fingerprints disagree and `earshot verify` says which file is from
/// another render. It is cheap to compute while streaming, the same for the same audio on every machine, and not
/// a security measure. Two ways of computing it exist, named by the text's first field:
///
/// - `fnv1a64x4` (what renders write): four 64-bit FNV-1a hashes side by side, sample *i* going to hash *i* mod 4
///   as one 16-bit unit, then the four hashes' bytes (little-endian, in order) hashed with FNV-1a. The four
///   hashes are independent, so the processor works on several at once, and there is one step per sample, not
///   one per byte: a 600 s render's fingerprint took about 30 ms, now about 18 ms (perf).
/// - `fnv1a64` (renders made before it): the 64-bit FNV-1a hash of the samples' bytes as stored (16-bit
///   little-endian). Still read and checked, so older renders verify.
public struct AudioFingerprint: Hashable, Sendable, CustomStringConvertible {
    /// How a fingerprint is computed; the raw value is the first field of its text.
    public enum Method: String, Sendable, CaseIterable {
        /// Four interleaved FNV-1a hashes of whole samples, combined: what renders write.
        case fnv1a64x4
        /// One FNV-1a hash over every byte: renders made before ``fnv1a64x4``.
        case fnv1a64
    }

    private static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3
    /// The four hashes' starting values: FNV's offset basis, made different per hash so that moving audio from
    /// one hash to another changes the result.
    private static let laneBasis = SIMD4<UInt64>(
        offsetBasis, offsetBasis ^ 1, offsetBasis ^ 2, offsetBasis ^ 3)

    /// How this fingerprint is computed.
    public let method: Method
    /// Frames hashed so far.
    public private(set) var frameCount = 0
    /// `fnv1a64`: the hash so far (unused by `fnv1a64x4`).
    private var single: UInt64 = offsetBasis
    /// `fnv1a64x4`: the four hashes so far.
    private var lanes = laneBasis
    /// A fingerprint read from text: its hash, final (nothing can be added to it).
    private var parsed: UInt64?

    /// An empty fingerprint (no frames), computed the way renders write it unless `method` says otherwise.
    public init(method: Method = .fnv1a64x4) {
        self.method = method
    }

    /// The fingerprint of `samples`.
    public init(samples: some Collection<Int16>, method: Method = .fnv1a64x4) {
        self.init(method: method)
        update(samples)
    }

    /// Parses `METHOD:HEX:FRAMES` (either method); nil for anything else.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let method = Method(rawValue: String(parts[0])), parts[1].count == 16,
            let hash = UInt64(parts[1], radix: 16), let frames = Int(parts[2]), frames >= 0
        else { return nil }
        self.method = method
        self.parsed = hash
        self.frameCount = frames
    }

    /// Adds frames. A fingerprint read from text cannot grow: adding to one is a programming error.
    public mutating func update(_ samples: some Collection<Int16>) {
        precondition(parsed == nil, "a fingerprint read from text cannot take more samples")
        let handled =
            samples.withContiguousStorageIfAvailable { buffer -> Bool in
                switch method {
                case .fnv1a64: hashBytes(of: buffer)
                case .fnv1a64x4: hashLanes(of: buffer)
                }
                return true
            } ?? false
        if !handled {
            let copy = Array(samples)
            copy.withUnsafeBufferPointer { buffer in
                switch method {
                case .fnv1a64: hashBytes(of: buffer)
                case .fnv1a64x4: hashLanes(of: buffer)
                }
            }
        }
    }

    private mutating func hashBytes(of samples: UnsafeBufferPointer<Int16>) {
        var value = single
        for sample in samples {
            let bits = UInt16(bitPattern: sample)
            value = (value ^ UInt64(bits & 0xFF)) &* Self.prime
            value = (value ^ UInt64(bits >> 8)) &* Self.prime
        }
        single = value
        frameCount += samples.count
    }

    /// Sample `frameCount + i` goes to hash `(frameCount + i) % 4`, however the audio is split into updates.
    private mutating func hashLanes(of samples: UnsafeBufferPointer<Int16>) {
        var index = 0
        var state = lanes
        // Up to the next multiple of four frames, one sample at a time.
        while index < samples.count, (frameCount + index) % 4 != 0 {
            let lane = (frameCount + index) % 4
            state[lane] = (state[lane] ^ UInt64(UInt16(bitPattern: samples[index]))) &* Self.prime
            index += 1
        }
        // Four samples at a time, one to each hash.
        let prime = SIMD4<UInt64>(repeating: Self.prime)
        while index + 4 <= samples.count {
            let group = SIMD4<UInt64>(
                UInt64(UInt16(bitPattern: samples[index])), UInt64(UInt16(bitPattern: samples[index + 1])),
                UInt64(UInt16(bitPattern: samples[index + 2])), UInt64(UInt16(bitPattern: samples[index + 3])))
            state = (state ^ group) &* prime
            index += 4
        }
        while index < samples.count {
            let lane = (frameCount + index) % 4
            state[lane] = (state[lane] ^ UInt64(UInt16(bitPattern: samples[index]))) &* Self.prime
            index += 1
        }
        lanes = state
        frameCount += samples.count
    }

    /// The 64-bit hash the text shows.
    public var digest: UInt64 {
        if let parsed { return parsed }
        switch method {
        case .fnv1a64: return single
        case .fnv1a64x4:
            var value = Self.offsetBasis
            for lane in 0..<4 {
                for shift in stride(from: 0, to: 64, by: 8) {
                    value = (value ^ ((lanes[lane] >> UInt64(shift)) & 0xFF)) &* Self.prime
                }
            }
            return value
        }
    }

    /// `METHOD:0123456789abcdef:FRAMES`.
    public var description: String {
        let hex = String(digest, radix: 16)
        return method.rawValue + ":" + String(repeating: "0", count: 16 - hex.count) + hex + ":\(frameCount)"
    }

    /// The same method, hash and frame count: the same audio (as far as a fingerprint can tell).
    public static func == (lhs: AudioFingerprint, rhs: AudioFingerprint) -> Bool {
        lhs.method == rhs.method && lhs.frameCount == rhs.frameCount && lhs.digest == rhs.digest
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(frameCount)
        hasher.combine(digest)
    }
}

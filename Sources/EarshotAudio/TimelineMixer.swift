import EarshotCore

/// Mixes clips into one mono 16-bit stream, block by block, with ducking and a saturating sum.
///
/// 1. Clips are added (``add(_:)``, or a whole timeline with ``add(_:at:speech:options:)``); nothing is
///    synthesized yet.
/// 2. ``render(blockFrames:progress:sink:)`` walks the output in blocks (a second by default). A clip's
///    samples are produced when the block reaching its start is mixed and dropped after its end, so memory
///    stays bounded by what sounds at once, however long the render.
/// 3. Each block sums its clips in 32 bits, ducks media under speech (``DuckingEnvelope``) and clamps to the
///    16-bit range: loud overlaps saturate instead of wrapping around.
///
/// A clip with gain 1 and no ducking is copied sample for sample, so speech alone in the mix is bit-exact.
public final class TimelineMixer {
    /// Frames per second of the output.
    public let rate: Int
    /// The clips added so far, in insertion order.
    public private(set) var clips: [MixClip] = []
    /// The output is at least this many frames long (a timeline's end, a pause).
    public private(set) var minimumLength = 0
    /// Length of each ducking ramp.
    public static let duckingRamp = TimeSpan.milliseconds(20)

    /// Creates an empty mix at `rate` frames per second.
    public init(rate: Int) { self.rate = rate }

    /// Adds a clip.
    public func add(_ clip: MixClip) {
        clips.append(clip)
    }

    /// Makes the output at least `frame` frames long.
    public func extend(to frame: Int) {
        minimumLength = max(minimumLength, frame)
    }

    /// The output's length in frames: the last clip's end or the minimum length, whichever is later.
    public var length: Int { max(minimumLength, clips.map(\.end).max() ?? 0) }

    /// Mixes everything, handing each block to `sink` in order; `progress` gets (frames done, total).
    public func render(
        blockFrames: Int = 22_050, progress: ((Int, Int) -> Void)? = nil, sink: ([Int16]) throws -> Void
    ) throws {
        let total = length
        let block = max(1, blockFrames)
        let ramp = max(1, Instant(nanoseconds: Self.duckingRamp.nanoseconds).frame(atRate: rate))
        let envelope = DuckingEnvelope(
            speech: clips.filter { $0.role == .speech }.map { $0.start..<$0.end }, ramp: ramp)
        let ordered = clips.enumerated().filter { $0.element.length > 0 }
            .sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        var next = 0
        var active: [(clip: MixClip, samples: [Int16])] = []
        var blockStart = 0
        while blockStart < total {
            let blockEnd = min(total, blockStart + block)
            while next < ordered.count, ordered[next].start < blockEnd {
                active.append((ordered[next], try ordered[next].samples()))
                next += 1
            }
            var sum = [Int32](repeating: 0, count: blockEnd - blockStart)
            var depths: [Double]?
            for (clip, samples) in active {
                let from = max(clip.start, blockStart)
                let to = min(clip.end, blockEnd, clip.start + samples.count)
                guard from < to else { continue }
                var duckingLevel: Double?
                if case .media(let level) = clip.role, let level { duckingLevel = level }
                if clip.gain == 1, duckingLevel == nil {
                    // A plain loop over two buffers, so the compiler vectorizes it: Int16s added to an Int32 cannot
                    // overflow unless 65,536 clips overlap.
                    sum.withUnsafeMutableBufferPointer { sum in
                        samples.withUnsafeBufferPointer { samples in
                            guard let sum = sum.baseAddress, let samples = samples.baseAddress else { return }
                            let target = sum + (from - blockStart)
                            let source = samples + (from - clip.start)
                            for index in 0..<(to - from) { target[index] &+= Int32(source[index]) }
                        }
                    }
                    continue
                }
                if duckingLevel != nil, depths == nil { depths = envelope.depths(for: blockStart..<blockEnd) }
                for frame in from..<to {
                    var gain = clip.gain
                    if let duckingLevel, let depths {
                        gain *= DuckingEnvelope.gain(depth: depths[frame - blockStart], level: duckingLevel)
                    }
                    sum[frame - blockStart] += Int32((Double(samples[frame - clip.start]) * gain).rounded())
                }
            }
            active.removeAll { $0.clip.end <= blockEnd }
            let mixed = [Int16](unsafeUninitializedCapacity: sum.count) { buffer, initialized in
                sum.withUnsafeBufferPointer { sum in
                    for index in 0..<sum.count { buffer[index] = Int16(clamping: sum[index]) }
                }
                initialized = sum.count
            }
            try sink(mixed)
            progress?(blockEnd, total)
            blockStart = blockEnd
        }
    }

    /// Mixes everything into `writer` (which the caller finishes or cancels).
    public func render(to writer: WAVWriter, progress: ((Int, Int) -> Void)? = nil) throws {
        try render(progress: progress) { block in try writer.append(block) }
    }

    /// Mixes everything into memory (tests and short clips).
    public func renderSamples() throws -> [Int16] {
        var samples: [Int16] = []
        samples.reserveCapacity(length)
        try render { samples += $0 }
        return samples
    }
}

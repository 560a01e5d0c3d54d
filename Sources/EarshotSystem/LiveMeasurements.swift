import EarshotCore

/// When one utterance's first sample reached the device, against when the engine started it.
public struct LiveStart: Hashable, Sendable {
    /// The utterance.
    public var utterance: UtteranceID
    /// The engine instant it started at (the app or user event that caused it, or the end of what it waited for).
    public var requestedAt: Instant
    /// When its first sample played, from `snd_pcm_delay` right after the write that carried it.
    public var firstSampleAt: Instant

    /// Creates a record.
    public init(utterance: UtteranceID, requestedAt: Instant, firstSampleAt: Instant) {
        self.utterance = utterance
        self.requestedAt = requestedAt
        self.firstSampleAt = firstSampleAt
    }

    /// Event → first sample at the device.
    public var latency: TimeSpan { firstSampleAt - requestedAt }
}

/// One barge-in as the device saw it, against the engine's account of it.
public struct LiveCut: Hashable, Sendable {
    /// The utterance cut.
    public var utterance: UtteranceID
    /// The engine instant of the cut.
    public var requestedAt: Instant
    /// When `snd_pcm_drop` returned: the device is silent from here.
    public var silentAt: Instant
    /// Frames the engine says were heard (`SpeechSignal.cut`).
    public var engineHeardFrames: Int
    /// Frames the device had played: frames written − `snd_pcm_delay`, read by the audio thread just before the drop.
    public var measuredHeardFrames: Int
    /// Frames per second of both counts.
    public var sampleRate: Int

    /// Creates a record.
    public init(
        utterance: UtteranceID, requestedAt: Instant, silentAt: Instant, engineHeardFrames: Int,
        measuredHeardFrames: Int, sampleRate: Int
    ) {
        self.utterance = utterance
        self.requestedAt = requestedAt
        self.silentAt = silentAt
        self.engineHeardFrames = engineHeardFrames
        self.measuredHeardFrames = measuredHeardFrames
        self.sampleRate = sampleRate
    }

    /// Interrupt → device silent.
    public var silentAfter: TimeSpan { silentAt - requestedAt }

    /// How much more (positive) or less (negative) the device played than the engine says was heard.
    public var positionError: TimeSpan {
        TimeSpan.frames(measuredHeardFrames, rate: sampleRate) - TimeSpan.frames(engineHeardFrames, rate: sampleRate)
    }
}

/// What a live session measured: every start's latency and every cut's silence delay and position.
public struct LiveMeasurements: Hashable, Sendable {
    /// Starts, in order.
    public var starts: [LiveStart] = []
    /// Cuts, in order.
    public var cuts: [LiveCut] = []

    /// Creates an empty set.
    public init(starts: [LiveStart] = [], cuts: [LiveCut] = []) {
        self.starts = starts
        self.cuts = cuts
    }

    /// Event → first sample, worst case.
    public var worstStartLatency: TimeSpan? { starts.map(\.latency).max() }

    /// Interrupt → silence, worst case.
    public var worstSilenceDelay: TimeSpan? { cuts.map(\.silentAfter).max() }

    /// The largest difference between the device's and the engine's cut position.
    public var worstPositionError: TimeSpan? {
        cuts.map { TimeSpan(nanoseconds: abs($0.positionError.nanoseconds)) }.max()
    }

    /// Three lines for the end of a session: latencies against their targets, and cut agreement.
    public var summary: String {
        var lines: [String] = []
        let startLatencies = starts.map(\.latency)
        if !startLatencies.isEmpty {
            lines.append(
                "event → first sample at the device: \(Self.describe(startLatencies)) over \(starts.count) "
                    + "starts (target ≤ 30 ms)")
        }
        if !cuts.isEmpty {
            lines.append(
                "interrupt → device silent: \(Self.describe(cuts.map(\.silentAfter))) over \(cuts.count) cuts "
                    + "(target ≤ 15 ms)")
            lines.append(
                "cut position, device − engine: \(Self.describe(cuts.map(\.positionError))) "
                    + "(frames written − snd_pcm_delay at the drop vs the engine's heard frames)")
        }
        if lines.isEmpty { lines.append("nothing was played") }
        return lines.joined(separator: "\n")
    }

    /// `median 4.1 ms, max 9.8 ms`.
    static func describe(_ spans: [TimeSpan]) -> String {
        let sorted = spans.map { Double($0.nanoseconds) / 1e6 }.sorted()
        guard let first = sorted.first, let last = sorted.last else { return "none" }
        let median = sorted[sorted.count / 2]
        func text(_ value: Double) -> String {
            let rounded = (value * 10).rounded() / 10
            return "\(rounded) ms"
        }
        return "median \(text(median)), min \(text(first)), max \(text(last))"
    }
}

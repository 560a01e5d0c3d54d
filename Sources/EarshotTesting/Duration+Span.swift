import EarshotCore

// Swift's `Duration` is the public currency of EarshotTesting; EarshotCore counts whole nanoseconds (`TimeSpan`,
// `Instant`). These conversions are the only place the two meet.

extension TimeSpan {
    /// The span of a Swift duration, truncated to whole nanoseconds.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.init(nanoseconds: seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}

extension Instant {
    /// The instant `duration` after the start of the run.
    init(_ duration: Duration) {
        self.init(nanoseconds: TimeSpan(duration).nanoseconds)
    }
}

extension Duration {
    /// A span of simulation time as a Swift duration.
    init(_ span: TimeSpan) {
        self = .nanoseconds(span.nanoseconds)
    }

    /// An instant on the simulation clock as the time since the run started.
    init(_ instant: Instant) {
        self = .nanoseconds(instant.nanoseconds)
    }
}

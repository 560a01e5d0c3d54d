import EarshotCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A monotonic clock that turns real elapsed time into engine instants: the seam between the wall and
/// the simulation's `Scheduler.advance(to:)`.
///
/// Instant zero is the moment the clock was created (or last ``restart()``ed). Both the engine thread
/// and the audio thread read the same clock, so latencies measured on either are comparable.
public final class RealTimeClock: @unchecked Sendable {
    private let lock = NSLock()
    private var origin: UInt64

    /// Creates a clock whose instant zero is now.
    public init() { origin = Self.monotonicNanoseconds() }

    /// Real time elapsed since instant zero.
    public var now: Instant {
        let start = lock.withLock { origin }
        return Instant(nanoseconds: Int64(Self.monotonicNanoseconds() &- start))
    }

    /// Makes now instant zero again.
    public func restart() {
        let now = Self.monotonicNanoseconds()
        lock.withLock { origin = now }
    }

    /// The engine instant a monotonic reading corresponds to.
    public func instant(atMonotonic nanoseconds: UInt64) -> Instant {
        let start = lock.withLock { origin }
        return Instant(nanoseconds: Int64(bitPattern: nanoseconds &- start))
    }

    /// `CLOCK_MONOTONIC` in nanoseconds: never jumps with wall-clock changes.
    public static func monotonicNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}

/// A point on the simulation clock: whole nanoseconds since the scenario started.
///
/// The core never reads a wall clock. Headless and WAV runs advance a virtual clock; live mode feeds the
/// same engine instants computed from real time (docs/speech-model.md, "What the engine models").
///
/// Arithmetic on instants and spans saturates at `Int64.min`/`Int64.max` nanoseconds instead of trapping:
/// a script's limits (24 hours) keep real values far from the ends, and an absurd one stays absurd rather
/// than crashing.
public struct Instant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the scenario's start.
    public var nanoseconds: Int64

    /// The scenario's start.
    public static let zero = Instant(nanoseconds: 0)

    /// Creates an instant from nanoseconds since the start.
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// Creates an instant from milliseconds since the start.
    public static func milliseconds(_ value: Int64) -> Instant {
        Instant(nanoseconds: Saturating.multiply(value, 1_000_000))
    }

    /// Creates an instant from seconds since the start (rounded to the nearest nanosecond).
    public static func seconds(_ value: Double) -> Instant {
        Instant(nanoseconds: Saturating.nanoseconds(value))
    }

    /// The instant in seconds, for display.
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    /// The instant in whole milliseconds (truncated), for display and JSON.
    public var milliseconds: Int64 { nanoseconds / 1_000_000 }

    /// The audio frame at this instant for a sample rate: `floor(t · rate)`.
    public func frame(atRate rate: Int) -> Int {
        // Split so that no product overflows: (q·1e9 + r)·rate / 1e9 = q·rate + r·rate / 1e9.
        let rate64 = Int64(rate)
        let whole = Saturating.multiply(nanoseconds / 1_000_000_000, rate64)
        return Int(Saturating.add(whole, (nanoseconds % 1_000_000_000) * rate64 / 1_000_000_000))
    }

    /// The instant at which a frame starts for a sample rate, rounded up so that
    /// `Instant.ofFrame(n, rate).frame(atRate: rate) == n`.
    public static func ofFrame(_ frame: Int, rate: Int) -> Instant {
        let numerator = Saturating.multiply(Int64(frame), 1_000_000_000)
        let rate64 = Int64(rate)
        return Instant(nanoseconds: Saturating.add(numerator, rate64 - 1) / rate64)
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// This instant moved forward by a span.
    public static func + (lhs: Instant, rhs: TimeSpan) -> Instant {
        Instant(nanoseconds: Saturating.add(lhs.nanoseconds, rhs.nanoseconds))
    }

    /// This instant moved back by a span.
    public static func - (lhs: Instant, rhs: TimeSpan) -> Instant {
        Instant(nanoseconds: Saturating.subtract(lhs.nanoseconds, rhs.nanoseconds))
    }

    /// The span from `rhs` to `lhs`.
    public static func - (lhs: Instant, rhs: Instant) -> TimeSpan {
        TimeSpan(nanoseconds: Saturating.subtract(lhs.nanoseconds, rhs.nanoseconds))
    }

    /// `1.234s`, the form transcripts use.
    public var description: String { TimeSpan(nanoseconds: nanoseconds).formatted }
}

/// A length of simulation time in whole nanoseconds.
public struct TimeSpan: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds.
    public var nanoseconds: Int64

    /// No time at all.
    public static let zero = TimeSpan(nanoseconds: 0)

    /// Creates a span from nanoseconds.
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// A span of whole milliseconds.
    public static func milliseconds(_ value: Int64) -> TimeSpan {
        TimeSpan(nanoseconds: Saturating.multiply(value, 1_000_000))
    }

    /// A span of seconds (rounded to the nearest nanosecond).
    public static func seconds(_ value: Double) -> TimeSpan { TimeSpan(nanoseconds: Saturating.nanoseconds(value)) }

    /// The span covered by a number of audio frames at a sample rate (rounded up to whole nanoseconds).
    public static func frames(_ count: Int, rate: Int) -> TimeSpan {
        TimeSpan(nanoseconds: Instant.ofFrame(count, rate: rate).nanoseconds)
    }

    /// The span in seconds.
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    /// The span in whole milliseconds (truncated).
    public var milliseconds: Int64 { nanoseconds / 1_000_000 }

    public static func < (lhs: TimeSpan, rhs: TimeSpan) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
    public static func + (lhs: TimeSpan, rhs: TimeSpan) -> TimeSpan {
        TimeSpan(nanoseconds: Saturating.add(lhs.nanoseconds, rhs.nanoseconds))
    }
    public static func - (lhs: TimeSpan, rhs: TimeSpan) -> TimeSpan {
        TimeSpan(nanoseconds: Saturating.subtract(lhs.nanoseconds, rhs.nanoseconds))
    }
    public static func * (lhs: TimeSpan, rhs: Int) -> TimeSpan {
        TimeSpan(nanoseconds: Saturating.multiply(lhs.nanoseconds, Int64(rhs)))
    }

    /// `1.234s` (milliseconds precision), or `150ms` under a second.
    public var formatted: String {
        let ms = nanoseconds / 1_000_000
        if ms < 0 { return "-" + TimeSpan(nanoseconds: Saturating.subtract(0, nanoseconds)).formatted }
        if ms < 1000 { return "\(ms)ms" }
        let whole = ms / 1000
        let frac = ms % 1000
        let padded = String(frac + 1000).dropFirst()
        return "\(whole).\(padded)s"
    }

    public var description: String { formatted }
}

/// Int64 arithmetic that clamps to the type's ends instead of trapping on overflow.
public enum Saturating {
    /// `a + b`, clamped.
    public static func add(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : sum
    }

    /// `a - b`, clamped.
    public static func subtract(_ a: Int64, _ b: Int64) -> Int64 {
        let (difference, overflow) = a.subtractingReportingOverflow(b)
        return overflow ? (b < 0 ? .max : .min) : difference
    }

    /// `a · b`, clamped.
    public static func multiply(_ a: Int64, _ b: Int64) -> Int64 {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? ((a < 0) == (b < 0) ? .max : .min) : product
    }

    /// Seconds as whole nanoseconds, rounded; NaN is zero and values past the ends clamp.
    public static func nanoseconds(_ seconds: Double) -> Int64 {
        let value = (seconds * 1e9).rounded()
        if value.isNaN { return 0 }
        if value >= 9.223_372_036_854_775_807e18 { return .max }
        if value <= -9.223_372_036_854_775_808e18 { return .min }
        return Int64(value)
    }
}

import Foundation

/// How much of the machine's processor time its hypervisor gave to other virtual machines (`steal` in
/// `/proc/stat`) while the benchmark ran.
///
/// On a virtual machine whose host is busy, a measured child runs slower, and the slowdown falls unevenly on
/// the runs being compared: medians of paired runs absorb some of it, not all. One series here saw half the
/// processor time stolen, and the same 24 renders then cost up to a third more from one round to the next. The
/// benchmark prints the share it saw, so a reader knows how far to trust the ratios. It is not the only cause: the
/// same check also ran twice as long from one minute to the next with almost nothing stolen, which the rounds'
/// spreads in the tables show.
public struct StolenTime: Equatable, Sendable {
    /// Processor time the hypervisor took, in the kernel's ticks, since boot.
    public var stolen: UInt64
    /// All processor time accounted, in ticks, since boot (every field of the line).
    public var total: UInt64

    /// Reads `/proc/stat`'s first line: `cpu  user nice system idle iowait irq softirq steal guest guest_nice`.
    /// Nil when it has no such line or fewer than eight numbers (no steal field: not a virtual machine's).
    public init?(procStat text: String) {
        guard let line = text.split(separator: "\n", maxSplits: 1).first else { return nil }
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.first == "cpu" else { return nil }
        let numbers = fields.dropFirst().map { UInt64($0) }
        guard numbers.count >= 8, !numbers.contains(nil) else { return nil }
        let ticks = numbers.compactMap { $0 }
        stolen = ticks[7]
        // guest and guest_nice are already counted in user and nice.
        total = ticks.prefix(8).reduce(0, +)
    }

    /// The counts now; nil where there is no `/proc/stat` (macOS).
    public static func now() -> StolenTime? {
        (try? String(contentsOfFile: "/proc/stat", encoding: .utf8)).flatMap { StolenTime(procStat: $0) }
    }

    /// The share of processor time stolen between `earlier` and these counts (0 ... 1); nil when no time was
    /// accounted between them.
    public func share(since earlier: StolenTime) -> Double? {
        guard total > earlier.total, stolen >= earlier.stolen else { return nil }
        return min(1, Double(stolen - earlier.stolen) / Double(total - earlier.total))
    }

    /// The line the benchmark ends with: the share stolen while it ran, and what it means for the ratios above.
    public static func line(share: Double) -> String {
        let percent = String(format: "%.1f", share * 100)
        if share < 0.02 {
            return "machine: \(percent) % of processor time went to other virtual machines while this ran\n"
        }
        return "machine: \(percent) % of processor time went to other virtual machines while this ran (steal): "
            + "the host was busy, and the ratios above vary more than their medians show; run again when it is "
            + "quiet\n"
    }
}

/// One target `earshot bench` reads a run against, with what the run measured and whether it was met.
///
/// The targets are computed from a run's result once; ``BenchTable`` prints them. A target is met on its measured
/// ratio alone: a parallel target also carries what the machine's own reference (work that shares nothing,
/// measured with the same pairs) gained, so a reader can tell a run that could not show the target on this machine
/// from one where Earshot fell short; it is never met because of it.
public struct BenchTarget: Sendable, Equatable {
    /// What was measured, for example `check of 24 scripts on 2 jobs`.
    public var subject: String
    /// What the target asks of it, for example `≥ 1.7× faster` or `warm ≥ 10× faster`.
    public var requirement: String
    /// The measured ratio.
    public var measured: Double
    /// Whether `measured` must stay at or under ``bound``, or reach it.
    public var direction: Direction
    /// A parallel target's machine reference: how much faster work that shares nothing was side by side, with the
    /// same pairs; nil for other targets, or when it was not measured.
    public var machine: Double?
    /// The bound `measured` is read against.
    public var bound: Double
    /// What `measured` and `bound` count: a ratio unless said otherwise.
    public var unit: Unit = .ratio

    /// Which side of its bound a measurement must be on.
    public enum Direction: Sendable, Equatable {
        /// At most the bound: a cost against a reference.
        case atMost
        /// At least the bound: a speed-up.
        case atLeast
    }

    /// What a target's measurement counts.
    public enum Unit: Sendable, Equatable {
        /// A cost or a speed-up against a reference: `1.054×`.
        case ratio
        /// Seconds of CPU time: `4.210 s`.
        case seconds
        /// Megabytes of peak memory: `132 MB`.
        case megabytes
        /// A fitted growth exponent (1 is linear, 2 quadratic): `1.03`.
        case exponent
    }

    /// Whether the measured ratio meets the target.
    public var met: Bool { direction == .atMost ? measured <= bound : measured >= bound }

    /// Whether the machine's reference fell short of the bound too: the run could not show the target.
    public var machineFellShort: Bool { machine.map { $0 < bound } ?? false }

    /// The targets `result` measured, in the order the tables show them: the scripts' render against raw
    /// espeak-ng (CPU), each warm check against its cold one, each parallel run on many jobs against one.
    public static func all(in result: ScriptBench.Result) -> [BenchTarget] {
        var targets: [BenchTarget] = []
        let render = result.rows.map(\.render.cpu).reduce(0, +)
        let raw = result.rows.map(\.raw.cpu).reduce(0, +)
        if raw > 0 {
            let count = result.rows.count
            targets.append(
                BenchTarget(
                    subject: "render of \(count) script\(count == 1 ? "" : "s")",
                    requirement: "CPU ≤ " + BenchTable.format(BenchTable.renderTarget, 2) + "× raw",
                    measured: render / raw, direction: .atMost, machine: nil,
                    bound: BenchTable.renderTarget))
        }
        for row in result.cache where row.warm.wall > 0 {
            let faster = row.cold.wall / row.warm.wall
            targets.append(
                BenchTarget(
                    subject: row.name,
                    requirement: "warm ≥ " + BenchTable.format(BenchTable.warmTarget, 0) + "× faster",
                    measured: faster, direction: .atLeast, machine: nil, bound: BenchTable.warmTarget))
        }
        for row in result.parallel where row.many.wall > 0 {
            targets.append(
                BenchTarget(
                    subject: row.name + " on \(result.jobs) jobs",
                    requirement: "≥ " + BenchTable.format(BenchTable.parallelTarget, 1) + "× faster",
                    measured: row.faster, direction: .atLeast, machine: row.machineFaster,
                    bound: BenchTable.parallelTarget))
        }
        return targets
    }

    /// The targets a scaling run measured, in the order the table shows them: each workload's growth (its highest
    /// fitted exponent of time and memory, for check and render), then each workload's largest size against raw
    /// espeak-ng when that size is long (its raw reference took at least ``BenchTable/longCheckRawSeconds`` of CPU:
    /// below that, start-up is most of both sides), then the two sizes the targets name: swiping through
    /// ``BenchTable/swipeElements`` elements and typing ``BenchTable/typingKeys`` keys (four hours, a key every
    /// 150 ms). A target whose size the run did not reach is not in the list.
    public static func all(in result: ScalingBench.Result) -> [BenchTarget] {
        var targets: [BenchTarget] = []
        for fit in result.fits {
            guard
                let highest = [fit.checkCPU, fit.checkMemory, fit.renderCPU, fit.renderMemory].compactMap({ $0 }).max()
            else { continue }
            targets.append(
                BenchTarget(
                    subject: fit.workload + ", check and render",
                    requirement: "exponent of time and memory ≤ " + BenchTable.format(ScalingFit.linearLimit, 1),
                    measured: highest, direction: .atMost, machine: nil, bound: ScalingFit.linearLimit,
                    unit: .exponent))
        }
        func subject(_ row: ScalingBench.Row) -> String {
            let unit = ScalingWorkload.all.first { $0.name == row.workload }?.unit
            return "check of \(row.workload) \(row.size)" + (unit.map { " " + $0 } ?? "")
        }
        for fit in result.fits {
            guard let longest = result.rows.filter({ $0.workload == fit.workload }).max(by: { $0.size < $1.size }),
                longest.raw.cpu >= BenchTable.longCheckRawSeconds
            else { continue }
            targets.append(
                BenchTarget(
                    subject: subject(longest),
                    requirement: "CPU ≤ " + BenchTable.format(BenchTable.checkTarget, 1) + "× raw",
                    measured: longest.check.cpu / longest.raw.cpu, direction: .atMost, machine: nil,
                    bound: BenchTable.checkTarget))
        }
        if let swiping = result.rows.first(where: { $0.workload == "swiping" && $0.size == BenchTable.swipeElements }) {
            targets.append(
                BenchTarget(
                    subject: subject(swiping),
                    requirement: "CPU ≤ " + BenchTable.format(BenchTable.swipeSeconds, 0) + " s",
                    measured: swiping.check.cpu, direction: .atMost, machine: nil, bound: BenchTable.swipeSeconds,
                    unit: .seconds))
        }
        if let typing = result.rows.first(where: { $0.workload == "typing" && $0.size == BenchTable.typingKeys }) {
            targets.append(
                BenchTarget(
                    subject: subject(typing),
                    requirement: "peak memory ≤ " + String(Int(BenchTable.typingMegabytes)) + " MB",
                    measured: Double(typing.check.peakKilobytes) / 1024, direction: .atMost, machine: nil,
                    bound: BenchTable.typingMegabytes, unit: .megabytes))
        }
        return targets
    }
}

import Foundation

/// `earshot bench --scaling`: generated workloads of growing size, each run by `earshot check` and
/// `earshot render` in child processes with a cold cache and again warm, against raw espeak-ng speaking the
/// heard text in a child of its own, with the fitted growth exponent per workload.
public struct ScalingBench: Sendable {
    /// One workload size's measurements.
    public struct Row: Sendable {
        /// The workload's name.
        public var workload: String
        /// The size (in the workload's unit).
        public var size: Int
        /// `earshot check` of the script, with an empty cache.
        public var check: ChildUsage
        /// `earshot render` of the script, with an empty cache.
        public var render: ChildUsage
        /// `earshot check` again, with the cache its cold run filled (it replays the run it remembered).
        public var warmCheck: ChildUsage
        /// `earshot render` again, with the cache its cold run filled (its phrases' audio).
        public var warmRender: ChildUsage
        /// Raw espeak-ng speaking the heard text.
        public var raw: ChildUsage
    }

    /// One workload's fitted exponents (nil with fewer than two sizes).
    public struct Fit: Sendable {
        /// The workload's name.
        public var workload: String
        /// Exponents of check CPU, check peak memory, render CPU, render peak memory, above start-up.
        public var checkCPU, checkMemory, renderCPU, renderMemory: Double?

        /// The exponents that exceed `ScalingFit.linearLimit`, by column name.
        public var superlinear: [String] {
            [
                ("check CPU", checkCPU), ("check memory", checkMemory), ("render CPU", renderCPU),
                ("render memory", renderMemory),
            ]
            .compactMap { name, value in (value ?? 0) > ScalingFit.linearLimit ? name : nil }
        }
    }

    /// Everything one run measured: the rows, the fits and the start-up baseline (a one-event script).
    public struct Result: Sendable {
        /// One row per workload size.
        public var rows: [Row]
        /// One fit per workload.
        public var fits: [Fit]
        /// The start-up row.
        public var baseline: Row
    }

    /// The runner of the children.
    public var runner: BenchRunner
    /// How many times a short size's cold check and raw reference are measured, in pairs (medians count).
    public var rounds: Int
    /// A size whose cold check took less CPU time than this is measured ``rounds`` times; a longer one once (its
    /// noise is a small part of it, and repeating them all would make a full run last most of an hour), except
    /// each workload's largest size, the one its target against raw reads.
    public static let repeatedBelowSeconds = 1.5
    /// ``repeatedBelowSeconds`` for this benchmark (tests lower it).
    var repeatedBelow = ScalingBench.repeatedBelowSeconds

    /// Creates a benchmark on a runner.
    public init(runner: BenchRunner, rounds: Int = 1) {
        self.runner = runner
        self.rounds = max(1, rounds)
    }

    /// Runs `workloads` at `sizes(workload)`.
    public func run(
        _ workloads: [ScalingWorkload], sizes: (ScalingWorkload) -> [Int], progress: (String) -> Void = { _ in }
    ) throws(BenchError) -> Result {
        let baseline = try measure("start-up", 0, script: ScalingWorkload.rapid(events: 1))
        var rows: [Row] = []
        var fits: [Fit] = []
        for workload in workloads {
            var measured: [Row] = []
            let list = sizes(workload)
            for size in list {
                progress("\(workload.name) \(size) \(workload.unit)")
                measured.append(
                    try measure(workload.name, size, script: workload.script(size), judged: size == list.max()))
            }
            rows += measured
            func fit(_ cost: (Row) -> Double, floor: Double) -> Double? {
                ScalingFit.exponent(measured.map { ($0.size, cost($0)) }, baseline: cost(baseline), floor: floor)
            }
            fits.append(
                Fit(
                    workload: workload.name, checkCPU: fit(\.check.cpu, floor: 0.01),
                    checkMemory: fit({ Double($0.check.peakKilobytes) }, floor: 1024),
                    renderCPU: fit(\.render.cpu, floor: 0.01),
                    renderMemory: fit({ Double($0.render.peakKilobytes) }, floor: 1024)))
        }
        return Result(rows: rows, fits: fits, baseline: baseline)
    }

    /// One script: check and render cold, then warm; the raw reference of its heard text. A short one's cold check
    /// and raw reference are measured again, alternately, up to ``rounds`` pairs: a single run of a fraction of a
    /// second on a busy machine can be 20 % off either way, and their ratio is the target's. So is a `judged` one
    /// (its workload's largest size), however long: on a host whose speed drifts within a minute, single runs of
    /// one workload's long sizes against their references read from 0.77× to 1.37×.
    func measure(_ name: String, _ size: Int, script text: String, judged: Bool = false) throws(BenchError) -> Row {
        let script = try runner.write(text, named: "\(name)-\(size).earshot")
        let output = runner.scratch + "/\(name)-\(size).wav"
        let checkCache = try runner.newCache()
        let renderCache = try runner.newCache()
        // A generated script has no checks: anything but a pass is a broken run, not a measurement.
        let check = try runner.earshot(["check", "--quiet", script], cache: checkCache)
        let render = try runner.earshot(["render", "-o", output, script], cache: renderCache)
        let warmCheck = try runner.earshot(["check", "--quiet", script], cache: checkCache)
        let warmRender = try runner.earshot(["render", "-o", output, script], cache: renderCache)
        let phrases = try runner.heardPhrases(of: script, named: "\(name)-\(size)")
        var checks = [check]
        var raws = [try runner.raw(phrases)]
        if check.cpu < repeatedBelow || judged {
            for _ in 1..<rounds {
                checks.append(try runner.earshot(["check", "--quiet", script], cache: try runner.newCache()))
                raws.append(try runner.raw(phrases))
            }
        }
        return Row(
            workload: name, size: size, check: BenchRunner.median(checks), render: render, warmCheck: warmCheck,
            warmRender: warmRender, raw: BenchRunner.median(raws))
    }
}

import Foundation

/// The text tables `earshot bench` prints.
public enum BenchTable {
    /// The targets the tables are read against, printed under them.
    public static let renderTarget = 1.05
    /// A long script's cold check against the synthesis it needs.
    public static let checkTarget = 1.1
    /// How much faster a check with a warm cache must be than a cold one.
    public static let warmTarget = 10.0
    /// How much faster a folder run on two jobs must be than on one.
    public static let parallelTarget = 1.7
    /// A scaling size is long, and held to ``checkTarget``, when its raw reference took at least this much CPU time.
    public static let longCheckRawSeconds = 1.0
    /// Swiping through this many elements must check within ``swipeSeconds`` of CPU time.
    public static let swipeElements = 10_000
    public static let swipeSeconds = 5.0
    /// Typing this many keys (four hours, a key every 150 ms) must check within ``typingMegabytes`` of peak memory.
    public static let typingKeys = 96_000
    public static let typingMegabytes = 1024.0

    /// The per-script table, the cache lines and the stopwatch line.
    public static func scripts(_ result: ScriptBench.Result) -> String {
        let header = [
            "script", "audio s", "render wall s", "render CPU s", "raw wall s", "raw CPU s", "wall/raw", "CPU/raw",
            "raw* CPU s", "CPU/raw*",
        ]
        func line(_ name: String, _ audio: Double, _ render: ChildUsage, _ raw: ChildUsage, _ rawStar: ChildUsage)
            -> [String]
        {
            [
                name, format(audio, 2), format(render.wall, 3), format(render.cpu, 3), format(raw.wall, 3),
                format(raw.cpu, 3), ratio(render.wall, raw.wall), ratio(render.cpu, raw.cpu), format(rawStar.cpu, 3),
                ratio(render.cpu, rawStar.cpu),
            ]
        }
        var lines = result.rows.map { line($0.name, $0.audio, $0.render, $0.raw, $0.rawLoadedAsEarshot) }
        func sum(_ usages: [ChildUsage]) -> ChildUsage {
            ChildUsage(
                wall: usages.map(\.wall).reduce(0, +), cpu: usages.map(\.cpu).reduce(0, +),
                peakKilobytes: usages.map(\.peakKilobytes).max() ?? 0, status: 0)
        }
        if result.rows.count > 1 {
            lines.append(
                line(
                    "total", result.rows.map(\.audio).reduce(0, +), sum(result.rows.map(\.render)),
                    sum(result.rows.map(\.raw)), sum(result.rows.map(\.rawLoadedAsEarshot))))
        }
        var text = aligned(header, lines)
        text += "render: a child process rendering the script to a WAV with an empty phrase cache; raw: a child "
        text += "process speaking the text that render made heard with plain in-process espeak-ng; medians of "
        text += "paired runs; target: render ≤ " + format(renderTarget, 2) + "× raw\n"
        text += "raw*: the same, espeak-ng loaded as earshot loads it (a stand-in for its playback library spares "
        text += "about 30 libraries): the rest of render's cost is Earshot's own work\n"
        text += roundSpread(result.rows)
        if !result.cache.isEmpty {
            text += "\n"
            text += aligned(
                [
                    "cache", "cold wall s", "cold CPU s", "warm wall s", "warm CPU s", "faster (wall)",
                    "--rerun wall s", "faster (wall)",
                ],
                result.cache.map { row in
                    [
                        row.name, format(row.cold.wall, 3), format(row.cold.cpu, 3), format(row.warm.wall, 3),
                        format(row.warm.cpu, 3), ratio(row.cold.wall, row.warm.wall), format(row.rerun.wall, 3),
                        ratio(row.cold.wall, row.rerun.wall),
                    ]
                })
            text += "cold: an empty cache; warm: the cache the cold run filled (the check replays the run it "
            text += "remembered); --rerun: the same cache, every script run again on cached phrases; target: warm ≥ "
            text += format(warmTarget, 0) + "× faster\n"
        }
        if !result.parallel.isEmpty {
            text += "\n"
            text += aligned(
                [
                    "parallel synthesis", "1 job wall s", "\(result.jobs) jobs wall s", "faster", "1 job CPU s",
                    "\(result.jobs) jobs CPU s", "pairs",
                ],
                result.parallel.map { row in
                    [
                        row.name, format(row.one.wall, 3), format(row.many.wall, 3), ratio(row.one.wall, row.many.wall),
                        format(row.one.cpu, 3), format(row.many.cpu, 3),
                        "\(row.pairRatios.count): " + range(row.pairRatios),
                    ]
                })
            text += "each with an empty cache; faster: the medians' ratio; pairs: how many runs on 1 job were paired "
            text += "with one on \(result.jobs) (\(ScriptBench.parallelPairsPerRound) a round), and the lowest and "
            text += "highest ratio of one pair; target on two cores: ≥ " + format(parallelTarget, 1) + "× faster\n"
            for row in result.parallel where !row.machine.isEmpty { text += machineLine(row, jobs: result.jobs) }
        }
        if let stopwatch = result.stopwatch {
            text += "\n"
            text += "stopwatch \(stopwatch.seconds) s render (cold): \(format(stopwatch.audio, 1)) s of audio in "
            text += "\(format(stopwatch.render.wall, 2)) s wall, \(format(stopwatch.render.cpu, 2)) s CPU "
            text += "(\(ratio(stopwatch.render.cpu, stopwatch.raw.cpu)) raw espeak-ng's "
            text += "\(format(stopwatch.raw.cpu, 2)) s"
            let rounds = stopwatch.cpuByRound
            if rounds.count > 1 {
                text += "; medians of \(rounds.count) rounds; rounds "
                text += range(rounds.map { $0.raw > 0 ? $0.render / $0.raw : 0 })
            }
            text += "), peak memory \(stopwatch.render.peakKilobytes / 1024) MB\n"
        }
        return text + targets(BenchTarget.all(in: result))
    }

    /// The scaling table: one line per workload size, then one line of fitted exponents per workload.
    public static func scaling(_ result: ScalingBench.Result) -> String {
        let header = [
            "workload", "size", "check wall s", "check CPU s", "check MB", "warm check s", "render wall s",
            "render CPU s", "render MB", "warm render s", "raw CPU s", "check/raw", "render/raw",
        ]
        func line(_ row: ScalingBench.Row) -> [String] {
            [
                row.workload, String(row.size), format(row.check.wall, 2), format(row.check.cpu, 2),
                String(row.check.peakKilobytes / 1024), format(row.warmCheck.wall, 2), format(row.render.wall, 2),
                format(row.render.cpu, 2), String(row.render.peakKilobytes / 1024), format(row.warmRender.wall, 2),
                format(row.raw.cpu, 2), ratio(row.check.cpu, row.raw.cpu), ratio(row.render.cpu, row.raw.cpu),
            ]
        }
        var text = aligned(header, [line(result.baseline)] + result.rows.map(line))
        text += "check and render with an empty phrase cache, warm: each again with the cache its cold run filled "
        text += "(a check replays the run it remembered, a render reads its phrases' audio); raw: plain espeak-ng "
        text += "speaking the heard text in a child process (start-up included on both sides); cold check and raw: "
        text += "medians of paired runs (--rounds) for sizes whose check takes under "
        text += format(ScalingBench.repeatedBelowSeconds, 1) + " s and each workload's largest; ratios of CPU time; "
        text += "target: a long script's check ≤ " + format(checkTarget, 1) + "× raw (long: its raw reference took "
        text += format(longCheckRawSeconds, 0) + " s of CPU or more)\n"
        text += "\nfitted exponent of cost above start-up over sizes (1 = linear, 2 = quadratic; over "
        text += format(ScalingFit.linearLimit, 1) + " is flagged):\n"
        func exponent(_ value: Double?) -> String { value.map { format($0, 2) } ?? "—" }
        let fitLines = result.fits.map { fit in
            [
                fit.workload, exponent(fit.checkCPU), exponent(fit.checkMemory), exponent(fit.renderCPU),
                exponent(fit.renderMemory),
                fit.superlinear.isEmpty ? "linear" : "SUPERLINEAR: " + fit.superlinear.joined(separator: ", "),
            ]
        }
        text += aligned(["workload", "check CPU", "check MB", "render CPU", "render MB", "verdict"], fitLines)
        return text + targets(BenchTarget.all(in: result))
    }

    /// With more than one round: the lowest and highest of each round's total render CPU over its total raw CPU
    /// (every script's runs of that round), so a reader sees how much the machine moved under the medians.
    static func roundSpread(_ rows: [ScriptBench.Row]) -> String {
        let count = rows.map(\.cpuByRound.count).min() ?? 0
        guard count > 1 else { return "" }
        let ratios = (0..<count).compactMap { round -> Double? in
            let raw = rows.map { $0.cpuByRound[round].raw }.reduce(0, +)
            return raw > 0 ? rows.map { $0.cpuByRound[round].render }.reduce(0, +) / raw : nil
        }
        guard ratios.count > 1 else { return "" }
        return "each round's total render CPU over its raw CPU, \(ratios.count) rounds: " + range(ratios) + "\n"
    }

    /// What work that shares nothing gains from running in parts side by side on this machine, measured with
    /// `row`'s pairs, with the CPU time both took on `jobs` against one; the row is named by its command (`the
    /// check`, `the samples`).
    static func machineLine(_ row: ScriptBench.ParallelRow, jobs: Int) -> String {
        guard let machineFaster = row.machineFaster else { return "" }
        let pairs = row.machine.count
        let run = "the " + (row.name.split(separator: " ").first.map(String.init) ?? row.name)
        var line = "for comparison with \(run), work that shares nothing: the raw reference speaking the heard text in "
        line += "\(row.machineParts) parts of about equal cost was " + format(machineFaster, 2)
        line += "× as fast side by side as one part after another (medians of \(pairs) pair\(pairs == 1 ? "" : "s")"
        if pairs > 1 {
            line += "; pairs " + range(row.machine.map(\.faster))
        }
        line += ")"
        // Two busy processors can each run slower than one: the reference's CPU shows how much, beside the check's.
        let cpuOneAfterAnother = BenchRunner.median(row.machine.map(\.cpuOneAfterAnother))
        let cpuSideBySide = BenchRunner.median(row.machine.map(\.cpuSideBySide))
        if cpuOneAfterAnother > 0, row.one.cpu > 0 {
            line += "; side by side it took " + format(cpuSideBySide / cpuOneAfterAnother, 2) + "× its CPU time, "
            line += run + " on \(jobs) jobs " + format(row.many.cpu / row.one.cpu, 2) + "× its CPU on 1"
        }
        let against = row.pairsAgainstMachine
        if !against.isEmpty {
            line += "; pair by pair, " + run + " gained " + format(BenchRunner.median(against), 2) + " of what the "
            line += "reference gained just before it (median; " + range(against, unit: "") + ")"
        }
        return line + "\n"
    }

    /// The targets table: what each target asks, what was measured and whether it was met; under it, a line for
    /// each missed parallel target naming what the machine's own reference gained meanwhile.
    static func targets(_ targets: [BenchTarget]) -> String {
        guard !targets.isEmpty else { return "" }
        let lines = targets.map { target in
            [target.subject + ", " + target.requirement, measured(target), target.met ? "met" : "missed"]
        }
        let notes = targets.filter { !$0.met }.compactMap { target in
            target.machine.map { machine in
                target.subject + " missed; work that shares nothing gained " + format(machine, 2) + "× with the same "
                    + "pairs" + (target.machineFellShort ? ", short of the target too: this run could not show it" : "")
                    + "\n"
            }
        }
        return "\n" + aligned(["target", "measured", "verdict"], lines) + notes.joined()
    }

    /// A target's measurement with its unit. Three decimals for a ratio or seconds: at two, a ratio of 1.054 read
    /// "1.05×  missed" against a bound of 1.05. Peak memory in whole megabytes, rounded up for the same reason.
    static func measured(_ target: BenchTarget) -> String {
        switch target.unit {
        case .ratio: format(target.measured, 3) + "×"
        case .seconds: format(target.measured, 3) + " s"
        case .megabytes: String(Int(target.measured.rounded(.up))) + " MB"
        case .exponent: format(target.measured, 3)
        }
    }

    /// `1.02–1.31×` for the lowest and highest of `ratios`; `—` without any.
    static func range(_ ratios: [Double], unit: String = "×") -> String {
        guard let low = ratios.min(), let high = ratios.max() else { return "—" }
        return format(low, 2) + "–" + format(high, 2) + unit
    }

    static func format(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }

    static func ratio(_ cost: Double, _ reference: Double) -> String {
        reference > 0 ? format(cost / reference, 2) + "×" : "—"
    }

    /// Columns padded to their widest cell: the first left-aligned, the rest right-aligned (a last `verdict`
    /// column left-aligned); no trailing spaces.
    static func aligned(_ header: [String], _ lines: [[String]]) -> String {
        let widths = header.indices.map { column in ([header] + lines).map { $0[column].count }.max() ?? 0 }
        func row(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 || column == cells.count - 1 && header.last == "verdict" ? cell + pad : pad + cell
            }.joined(separator: "  ").replacing(/\s+$/, with: "")
        }
        return ([row(header), row(widths.map { String(repeating: "-", count: $0) })] + lines.map(row))
            .joined(separator: "\n") + "\n"
    }
}

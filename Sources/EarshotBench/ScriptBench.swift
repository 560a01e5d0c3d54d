import EarshotCore
import Foundation

/// `earshot bench`: Earshot against raw espeak-ng on the same speech, measured in the same run.
///
/// For each script: a child renders it to a WAV with an empty phrase cache (a cold render: engine, synthesis,
/// mix, files), and a child speaks exactly the text that render made heard (each heard utterance's heard part,
/// each heard narration line) with plain in-process espeak-ng (``BenchRunner/raw(_:loadedAsEarshot:)``), loaded
/// as any program loads it and again as Earshot loads it. The three alternate for `rounds` rounds and the medians
/// count. Then the cache: a check of all the scripts together cold, and again warm, and the same for a long
/// stopwatch. Then the parallel runs: that check on one job and on ``jobs``, and `samples` likewise
/// (``parallelPairsPerRound`` pairs a round each, each pair with the raw reference speaking the heard text in parts
/// one after another and side by side). Last, the stopwatch's render with its peak memory, against the raw
/// reference (a pair a round).
public struct ScriptBench: Sendable {
    /// One script's medians.
    public struct Row: Sendable {
        /// The script, as `pattern/file`.
        public var name: String
        /// The cold render.
        public var render: ChildUsage
        /// Raw espeak-ng speaking the heard text.
        public var raw: ChildUsage
        /// The same, with espeak-ng loaded as Earshot loads it (its stand-in playback library): what is left of
        /// the difference is Earshot's own work, not the libraries it spares.
        public var rawLoadedAsEarshot: ChildUsage
        /// Seconds of audio rendered.
        public var audio: Double
        /// The render's and the raw reference's CPU seconds in each round, in order: how far the rounds spread.
        public var cpuByRound: [(render: Double, raw: Double)] = []
    }

    /// A command measured with an empty cache and then again with the cache it filled.
    public struct CacheRow: Sendable {
        /// What was measured.
        public var name: String
        /// The first run, with an empty cache.
        public var cold: ChildUsage
        /// The next run, with the cache the cold run filled: a check replays the run it remembered.
        public var warm: ChildUsage
        /// The same with `--rerun`: the phrase cache answers, but every script is parsed and run again.
        public var rerun: ChildUsage
    }

    /// A command run on one job and on several, each with an empty cache.
    public struct ParallelRow: Sendable {
        /// What was measured.
        public var name: String
        /// With `--jobs 1`.
        public var one: ChildUsage
        /// With `--jobs` ``ScriptBench/jobs``.
        public var many: ChildUsage
        /// Each pair's one-job wall time over its many-jobs wall time, in order.
        public var pairRatios: [Double] = []
        /// The machine's own reference, measured with each pair (for the check only): the raw reference speaking
        /// the heard text in parts of about equal cost, one per job, the parts' wall seconds one after another and
        /// side by side. Their ratio is what work that shares nothing gains from the jobs on this machine while
        /// the benchmark runs; a host that slows for a moment slows it as much as the pairs.
        public var machine: [MachineRun] = []
        /// How many parts the machine's reference speaks: one per job, fewer when there are fewer scripts.
        public var machineParts = 0
    }

    /// The machine's reference measured once: its parts' wall and CPU seconds, one after another and side by side.
    public struct MachineRun: Sendable, Equatable {
        public var oneAfterAnother: Double
        public var sideBySide: Double
        public var cpuOneAfterAnother: Double
        public var cpuSideBySide: Double

        /// Creates a record.
        public init(oneAfterAnother: Double, sideBySide: Double, cpuOneAfterAnother: Double, cpuSideBySide: Double) {
            self.oneAfterAnother = oneAfterAnother
            self.sideBySide = sideBySide
            self.cpuOneAfterAnother = cpuOneAfterAnother
            self.cpuSideBySide = cpuSideBySide
        }

        /// How much faster the parts were side by side than one after another (0 without a side-by-side time).
        public var faster: Double { sideBySide > 0 ? oneAfterAnother / sideBySide : 0 }
    }

    /// A long stopwatch's cold render against the raw reference of its heard text, `rounds` pairs, medians.
    public struct StopwatchRow: Sendable {
        /// The stopwatch's length.
        public var seconds: Int
        /// The cold render.
        public var render: ChildUsage
        /// Raw espeak-ng speaking the heard text.
        public var raw: ChildUsage
        /// Seconds of audio rendered.
        public var audio: Double
        /// The render's and the raw reference's CPU seconds in each round, in order.
        public var cpuByRound: [(render: Double, raw: Double)] = []
    }

    /// Everything one `earshot bench` measured.
    public struct Result: Sendable {
        /// One row per script.
        public var rows: [Row]
        /// Cold and warm checks.
        public var cache: [CacheRow]
        /// One job against ``ScriptBench/jobs``.
        public var parallel: [ParallelRow]
        /// The jobs of the parallel runs.
        public var jobs: Int
        /// The stopwatch render (nil when skipped) and the raw reference of its heard text.
        public var stopwatch: StopwatchRow?
    }

    /// The runner of the children.
    public var runner: BenchRunner
    /// Rounds per measurement; the median counts.
    public var rounds = 3
    /// The jobs the parallel runs use against one.
    public var jobs = max(2, ProcessInfo.processInfo.activeProcessorCount)
    /// Pairs of one-job and many-job runs per round, for the folder check and for `samples`. Both are short: two
    /// jobs check the 24 shipped scripts in about 0.15 s and render them in about 0.3 s, so one stall of a shared
    /// host is a tenth of a run, and on a 2-core VM single pairs' ratios have spread from 0.9× to 2.2× within one
    /// run. Their medians need more pairs than a render's; with the machine's reference measured with each, they
    /// cost about ten seconds a round.
    public static let parallelPairsPerRound = 3

    /// Creates a benchmark on a runner.
    public init(runner: BenchRunner) {
        self.runner = runner
    }

    /// Measures `scripts` (paths; `name(path)` for the table) and a `stopwatchSeconds` stopwatch (0: none);
    /// with `samplesOf` (a Scripts folder), also `earshot samples` of it on one job and on ``jobs``.
    public func run(
        _ scripts: [String], name: (String) -> String, stopwatchSeconds: Int, samplesOf scriptsFolder: String? = nil,
        progress: (String) -> Void = { _ in }
    ) throws(BenchError) -> Result {
        var rows: [Row] = []
        var lists: [String] = []
        for (index, script) in scripts.enumerated() {
            progress(name(script))
            let list = try runner.heardPhrases(of: script, named: "script-\(index)")
            lists.append(list)
            let wav = runner.scratch + "/render-\(index).wav"
            var renders: [ChildUsage] = []
            var raws: [ChildUsage] = []
            var rawsLoadedAsEarshot: [ChildUsage] = []
            for _ in 0..<rounds {
                renders.append(try runner.earshot(["render", "-o", wav, script], cache: try runner.newCache()))
                raws.append(try runner.raw(list))
                rawsLoadedAsEarshot.append(try runner.raw(list, loadedAsEarshot: true))
            }
            rows.append(
                Row(
                    name: name(script), render: BenchRunner.median(renders), raw: BenchRunner.median(raws),
                    rawLoadedAsEarshot: BenchRunner.median(rawsLoadedAsEarshot), audio: Self.seconds(ofWAV: wav),
                    cpuByRound: zip(renders, raws).map { ($0.cpu, $1.cpu) }))
        }
        let ofScripts = "of \(scripts.count) script\(scripts.count == 1 ? "" : "s")"
        var cache: [CacheRow] = []
        if !scripts.isEmpty {
            progress("check \(ofScripts), cold and warm")
            cache.append(try coldAndWarm("check \(ofScripts)", ["check", "--quiet"] + scripts))
        }
        var parallel: [ParallelRow] = []
        // The heard text in parts of about equal raw cost, one per job: the machine's own reference.
        let parts =
            scripts.count > 1
            ? try Self.groups(rows.map(\.raw.cpu), count: jobs).enumerated().map {
                (part, members) throws(BenchError) in
                try runner.write(
                    try members.map { index throws(BenchError) in try Self.read(lists[index]) }.joined(),
                    named: "part-\(part).phrases")
            } : []
        if scripts.count > 1 {
            progress("check \(ofScripts) on 1 and \(jobs) jobs")
            parallel.append(
                try oneAndMany(
                    "check \(ofScripts)", ["check", "--quiet"] + scripts,
                    pairs: rounds * Self.parallelPairsPerRound, machineParts: parts))
        }
        if let scriptsFolder {
            progress("samples of \(scriptsFolder) on 1 and \(jobs) jobs")
            parallel.append(
                try oneAndMany(
                    "samples \(ofScripts)",
                    ["samples", "--scripts", scriptsFolder, "-o", runner.scratch + "/samples"],
                    pairs: rounds * Self.parallelPairsPerRound, machineParts: parts))
        }
        var stopwatch: StopwatchRow?
        if stopwatchSeconds > 0 {
            let script = try runner.write(
                ScalingWorkload.stopwatch(seconds: stopwatchSeconds), named: "stopwatch.earshot")
            progress("stopwatch \(stopwatchSeconds) s check, cold and warm")
            cache.append(try coldAndWarm("check of a \(stopwatchSeconds) s stopwatch", ["check", "--quiet", script]))
            progress("stopwatch \(stopwatchSeconds) s render")
            let list = try runner.heardPhrases(of: script, named: "stopwatch")
            let wav = runner.scratch + "/stopwatch.wav"
            // Paired like the scripts' renders: one unpaired run of each has read from 1.01× to 1.46× raw.
            var renders: [ChildUsage] = []
            var raws: [ChildUsage] = []
            for _ in 0..<rounds {
                renders.append(try runner.earshot(["render", "-o", wav, script], cache: try runner.newCache()))
                raws.append(try runner.raw(list))
            }
            stopwatch = StopwatchRow(
                seconds: stopwatchSeconds, render: BenchRunner.median(renders), raw: BenchRunner.median(raws),
                audio: Self.seconds(ofWAV: wav), cpuByRound: zip(renders, raws).map { ($0.cpu, $1.cpu) })
        }
        return Result(rows: rows, cache: cache, parallel: parallel, jobs: jobs, stopwatch: stopwatch)
    }

    /// `arguments` run with a new cache, then with the same cache again, then again with `--rerun`; `rounds`
    /// rounds, medians. A check's failing checks (status 1) are part of what is measured, not a broken run.
    func coldAndWarm(_ name: String, _ arguments: [String]) throws(BenchError) -> CacheRow {
        var cold: [ChildUsage] = []
        var warm: [ChildUsage] = []
        var rerun: [ChildUsage] = []
        for _ in 0..<rounds {
            let folder = try runner.newCache()
            cold.append(try runner.earshot(arguments, cache: folder, accepted: [0, 1]))
            warm.append(try runner.earshot(arguments, cache: folder, accepted: [0, 1]))
            rerun.append(try runner.earshot(arguments + ["--rerun"], cache: folder, accepted: [0, 1]))
        }
        return CacheRow(
            name: name, cold: BenchRunner.median(cold), warm: BenchRunner.median(warm),
            rerun: BenchRunner.median(rerun))
    }

    /// `arguments` with `--jobs 1` and with `--jobs` ``jobs``, each with an empty cache; `pairs` pairs, medians.
    /// With `machineParts` (phrase lists), before each pair, the raw reference speaks them one after another and
    /// then side by side.
    func oneAndMany(_ name: String, _ arguments: [String], pairs: Int, machineParts: [String] = [])
        throws(BenchError) -> ParallelRow
    {
        var one: [ChildUsage] = []
        var many: [ChildUsage] = []
        var machine: [MachineRun] = []
        for _ in 0..<max(1, pairs) {
            if machineParts.count > 1 {
                var oneAfterAnother = (wall: 0.0, cpu: 0.0)
                for part in machineParts {
                    let usage = try runner.raw(part)
                    oneAfterAnother = (oneAfterAnother.wall + usage.wall, oneAfterAnother.cpu + usage.cpu)
                }
                let sideBySide = try runner.rawSideBySide(machineParts)
                machine.append(
                    MachineRun(
                        oneAfterAnother: oneAfterAnother.wall, sideBySide: sideBySide.wall,
                        cpuOneAfterAnother: oneAfterAnother.cpu, cpuSideBySide: sideBySide.cpu))
            }
            one.append(
                try runner.earshot(arguments + ["--jobs", "1"], cache: try runner.newCache(), accepted: [0, 1]))
            many.append(
                try runner.earshot(
                    arguments + ["--jobs", String(jobs)], cache: try runner.newCache(), accepted: [0, 1]))
        }
        return ParallelRow(
            name: name, one: BenchRunner.median(one), many: BenchRunner.median(many),
            pairRatios: zip(one, many).map { $1.wall > 0 ? $0.wall / $1.wall : 0 }, machine: machine,
            machineParts: machine.isEmpty ? 0 : machineParts.count)
    }

    /// The indices of `costs` dealt into at most `count` groups of about equal total: the costliest first, each
    /// to the group with the least so far (the first such). Each group lists its indices in order; empty groups
    /// are left out.
    static func groups(_ costs: [Double], count: Int) -> [[Int]] {
        var groups = Array(repeating: (total: 0.0, members: [Int]()), count: max(1, count))
        for index in costs.indices.sorted(by: { (costs[$0], $1) > (costs[$1], $0) }) {
            let lightest = groups.indices.min { (groups[$0].total, $0) < (groups[$1].total, $1) } ?? 0
            groups[lightest].total += costs[index]
            groups[lightest].members.append(index)
        }
        return groups.map { $0.members.sorted() }.filter { !$0.isEmpty }
    }

    /// A phrase list's text.
    static func read(_ path: String) throws(BenchError) -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw BenchError("\(path): cannot read it: \(SystemReason.of(error))")
        }
    }

    /// Seconds of audio in one of Earshot's WAVs (mono 16-bit, the canonical 44-byte header), 0 when unreadable.
    static func seconds(ofWAV path: String) -> Double {
        guard let handle = FileHandle(forReadingAtPath: path), let header = try? handle.read(upToCount: 44),
            header.count == 44
        else { return 0 }
        try? handle.close()
        func number(_ range: Range<Int>) -> Int { header[range].reversed().reduce(0) { $0 << 8 | Int($1) } }
        let rate = number(24..<28)
        return rate > 0 ? Double(number(40..<44)) / 2 / Double(rate) : 0
    }
}

extension ScriptBench.ParallelRow {
    /// How much faster the run was on many jobs than on one: the medians' ratio (0 without a many-jobs time).
    public var faster: Double { many.wall > 0 ? one.wall / many.wall : 0 }

    /// How much faster the machine's reference was side by side than one part after another: the medians' ratio;
    /// nil when it was not measured.
    public var machineFaster: Double? {
        let sideBySide = BenchRunner.median(machine.map(\.sideBySide))
        return sideBySide > 0 ? BenchRunner.median(machine.map(\.oneAfterAnother)) / sideBySide : nil
    }

    /// Each pair's gain over the gain of the machine's reference measured just before it: 1 when the run gained
    /// from its jobs all that work sharing nothing gained at that moment. The pairing is meant to take out a host's
    /// slower and faster spells, which move both; single pairs still spread widely (from 0.5 to 2.5 on a 2-core
    /// virtual machine), so their median is the figure to read.
    public var pairsAgainstMachine: [Double] {
        zip(pairRatios, machine).compactMap { ratio, run in
            run.faster > 0 ? ratio / run.faster : nil
        }
    }
}

@testable import EarshotBench
import EarshotCLI
import Foundation
import Testing

/// `earshot bench --scaling`: the generated workloads run in child processes, the table, and the fitted exponent.
@Suite("scaling benchmark")
struct ScalingBenchTests {
    @Test func aQuickRunPrintsARowPerSizeAndAnExponentPerWorkload() throws {
        try #require(EarshotBinary.path != nil, "the earshot executable is built next to the tests")
        let result = try EarshotBinary.run(["bench", "--scaling", "--quick", "--workload", "stopwatch,swiping"])
        let lines = result.output.split(separator: "\n").map(String.init)
        // The exit status is the targets table's verdict: 1, with the missed targets named, when it shows one missed.
        let missed = lines.filter { $0.split(separator: " ").last == "missed" }
        #expect(result.status == (missed.isEmpty ? 0 : 1), "stderr: \(result.error)")
        #expect(result.error.contains(" missed: ") == !missed.isEmpty, "stderr: \(result.error)")
        let header = try #require(lines.first)
        for column in [
            "check wall s", "check CPU s", "check MB", "warm check s", "render CPU s", "render MB", "warm render s",
            "raw CPU s", "render/raw",
        ] {
            #expect(header.contains(column))
        }
        let rows = lines.filter { $0.hasPrefix("stopwatch ") || $0.hasPrefix("swiping ") }
        // Three sizes each, then one exponent line each.
        #expect(rows.count == 8, "\(result.output)")
        for row in rows.prefix(6) {
            let cells = row.split(separator: " ", omittingEmptySubsequences: true)
            #expect(cells.count == 13, "\(row)")
            #expect(cells.dropFirst().dropLast(2).allSatisfy { Double($0) != nil }, "\(row)")
        }
        #expect(rows.prefix(3).map { $0.split(separator: " ")[1] } == ["10", "20", "40"])
        #expect(lines.contains { $0.hasPrefix("start-up ") })
        // Header, rule, start-up, 6 sizes, the legend; the fit's title, header, rule and 2 workloads; the targets'
        // header, rule and the 2 workloads' growth (the quick sizes are short: none is held to raw); on Linux the
        // share of processor time the hypervisor took; nothing else (blank lines are not counted).
        #if os(Linux)
            #expect(lines.count == 20, "\(result.output)")
            #expect(lines.last?.hasPrefix("machine: ") == true, "\(result.output)")
        #else
            #expect(lines.count == 19, "\(result.output)")
        #endif
        let targets = lines.drop { !$0.hasPrefix("target ") }.dropFirst(2).prefix(2)
        #expect(
            targets.map { $0.prefix { $0 != "," } } == ["stopwatch", "swiping"]
                && targets.allSatisfy { $0.contains(", check and render, exponent of time and memory ≤ 1.3 ") },
            "\(result.output)")
        for fit in rows.suffix(2) {
            let cells = fit.split(separator: " ", omittingEmptySubsequences: true)
            #expect(cells.dropFirst().prefix(4).allSatisfy { Double($0) != nil }, "\(fit)")
        }
    }

    @Test func anUnknownWorkloadIsAUsageError() throws {
        try #require(EarshotBinary.path != nil, "the earshot executable is built next to the tests")
        let result = try EarshotBinary.run(["bench", "--scaling", "--workload", "stopwatch,juggling"])
        #expect(result.status == 64)
        #expect(result.error.contains("no workload 'juggling'"))
        #expect(result.output.isEmpty)
    }

    /// An option of the other bench is refused at once, naming it, rather than quietly running a bench the user
    /// did not ask for (`bench --quick` ran the whole script bench).
    @Test(arguments: [
        (["--quick"], "--quick applies only with --scaling"),
        (["--workload", "typing"], "--workload applies only with --scaling"),
        (["--steps", "2"], "--steps applies only with --scaling"),
        (["--scaling", "Scripts/updates-frequently"], "--scaling times workloads it makes itself"),
        (["--scaling", "--stopwatch", "60"], "--stopwatch is the script bench's"),
    ])
    func anOptionOfTheOtherBenchIsAUsageError(words: [String], message: String) throws {
        try #require(EarshotBinary.path != nil, "the earshot executable is built next to the tests")
        let result = try EarshotBinary.run(["bench"] + words, in: packageRoot)
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("earshot bench: error: " + message), "\(result.error)")
        #expect(result.output.isEmpty)
    }

    /// The script bench's own options with a script: it runs, and names one script as one.
    @Test func theScriptBenchTakesAScriptAndAStopwatch() throws {
        try #require(EarshotBinary.path != nil, "the earshot executable is built next to the tests")
        let script = packageRoot + "/Scripts/announcement-spam/after-cart.earshot"
        let result = try EarshotBinary.run(["bench", script, "--stopwatch", "0", "--rounds", "1"])
        #expect(result.status == 0 || result.status == 1, "\(result.error)")
        #expect(result.output.contains("\nrender of 1 script, CPU ≤ 1.05× raw "), "\(result.output)")
        #expect(result.output.contains("\ncheck of 1 script, warm ≥ 10× faster "), "\(result.output)")
    }

    /// A short size's cold check and reference are measured once per round (each check with a cache folder of its
    /// own), so their ratio is a median of pairs; a single round measures each once.
    @Test(arguments: [1, 3])
    func aShortSizesCheckAndReferenceAreMeasuredOncePerRound(rounds: Int) throws {
        let executable = try #require(EarshotBinary.path, "the earshot executable is built next to the tests")
        let fixture = ScalingWorkload(
            name: "fixture", unit: "events", sizes: [5], quickSizes: [],
            script: { size in ScalingWorkload.rapid(events: size) })
        let runner = try BenchRunner(executable: executable, voicesDirectory: nil)
        defer { runner.removeScratch() }
        let bench = ScalingBench(runner: runner, rounds: rounds)
        let before = try FileManager.default.contentsOfDirectory(atPath: runner.scratch).filter {
            $0.hasPrefix("cache-")
        }
        _ = try bench.measure("fixture", 5, script: fixture.script(5))
        let caches = try FileManager.default.contentsOfDirectory(atPath: runner.scratch).filter {
            $0.hasPrefix("cache-")
        }
        // One each for the cold check, the cold render and the heard text; one more per further round's check.
        #expect(caches.count - before.count == 3 + (rounds - 1))
    }

    /// A long size (here every size is long: the threshold is 0 s) is measured once, unless its target against raw
    /// reads it (its workload's largest): then its cold check and reference are paired once per round too.
    @Test(arguments: [false, true])
    func aLongSizeIsMeasuredOnceUnlessItIsJudged(judged: Bool) throws {
        let executable = try #require(EarshotBinary.path, "the earshot executable is built next to the tests")
        let runner = try BenchRunner(executable: executable, voicesDirectory: nil)
        defer { runner.removeScratch() }
        var bench = ScalingBench(runner: runner, rounds: 3)
        bench.repeatedBelow = 0
        func caches() throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: runner.scratch).filter { $0.hasPrefix("cache-") }.count
        }
        let before = try caches()
        _ = try bench.measure("fixture", 5, script: ScalingWorkload.rapid(events: 5), judged: judged)
        // One each for the cold check, the cold render and the heard text; one more per further round's check.
        #expect(try caches() - before == 3 + (judged ? 2 : 0))
    }

    /// A run judges one size of each workload (its largest), not every size and not none.
    @Test func aRunJudgesOneSizePerWorkload() throws {
        let executable = try #require(EarshotBinary.path, "the earshot executable is built next to the tests")
        let runner = try BenchRunner(executable: executable, voicesDirectory: nil)
        defer { runner.removeScratch() }
        var bench = ScalingBench(runner: runner, rounds: 2)
        bench.repeatedBelow = 0
        let fixture = ScalingWorkload(
            name: "fixture", unit: "events", sizes: [3, 6], quickSizes: [],
            script: { size in ScalingWorkload.rapid(events: size) })
        let before = try FileManager.default.contentsOfDirectory(atPath: runner.scratch).count
        _ = try bench.run([fixture], sizes: \.sizes)
        let after = try FileManager.default.contentsOfDirectory(atPath: runner.scratch)
        // Per size: a script, a WAV (with its .vtt and .jsonl), a phrase list, 3 caches; one more cache for the
        // judged size's second round; the start-up row likewise, measured once.
        let caches = after.filter { $0.hasPrefix("cache-") }.count
        #expect(caches == 3 * 3 + 1, "\(after.sorted()) (\(before) before)")
    }

    /// A fixture whose script grows as size² (n² announcements) must be reported near 2 and flagged; the same
    /// script growing as n near 1 and not flagged: the measurement and the fit can tell them apart.
    @Test(arguments: [true, false])
    func aWorkloadIsReportedWithTheExponentOfItsGrowth(squared: Bool) throws {
        let executable = try #require(EarshotBinary.path, "the earshot executable is built next to the tests")
        let fixture = ScalingWorkload(
            // Large enough that the work above start-up dwarfs the noise of timing small runs.
            name: "fixture", unit: "events", sizes: squared ? [10, 20, 40] : [100, 400, 1600], quickSizes: [],
            // The benchmark's "rapid" script with n² or n announcements.
            script: { size in ScalingWorkload.rapid(events: squared ? size * size : size) })
        let runner = try BenchRunner(executable: executable, voicesDirectory: nil)
        defer { runner.removeScratch() }
        let result = try ScalingBench(runner: runner).run([fixture], sizes: \.sizes)
        let fit = try #require(result.fits.first)
        let exponent = try #require(fit.checkCPU)
        // CPU time of small runs on a busy machine is noisy (a squared fixture has measured 2.2 and 2.8): the two
        // fixtures are told apart by which side of 1.6 they land, and only the squared one must be flagged.
        if squared {
            #expect(exponent > 1.6, "check CPU exponent \(exponent)")
            #expect(fit.superlinear.contains("check CPU"))
        } else {
            #expect(exponent < 1.6, "check CPU exponent \(exponent)")
        }
        let table = BenchTable.scaling(result)
        if squared { #expect(table.contains("SUPERLINEAR: ")) }
    }
}

/// `earshot bench` of scripts: how many runs each measurement pairs.
@Suite("script benchmark")
struct ScriptBenchTests {
    /// Each round renders each script (and the stopwatch) once against the raw reference once, and pairs a one-job
    /// folder check with a two-job one three times, and a one-job `samples` of the folder with a two-job one three
    /// times (both are short, so their medians need more pairs), each pair with the machine's own reference.
    @Test(arguments: [1, 2])
    func aFolderCheckAndSamplesArePairedThreeTimesARoundAndARenderOnce(rounds: Int) throws {
        let executable = try #require(EarshotBinary.path, "the earshot executable is built next to the tests")
        let runner = try BenchRunner(executable: executable, voicesDirectory: nil)
        defer { runner.removeScratch() }
        try FileManager.default.createDirectory(
            atPath: runner.scratch + "/Scripts/rapid", withIntermediateDirectories: true)
        let scripts = [
            try runner.write(ScalingWorkload.rapid(events: 2), named: "Scripts/rapid/two.earshot"),
            try runner.write(ScalingWorkload.rapid(events: 3), named: "Scripts/rapid/three.earshot"),
        ]
        var bench = ScriptBench(runner: runner)
        bench.rounds = rounds
        bench.jobs = 2
        let result = try bench.run(
            scripts, name: { $0 }, stopwatchSeconds: 2, samplesOf: runner.scratch + "/Scripts")
        #expect(result.rows.map(\.cpuByRound.count) == [rounds, rounds])
        // The stopwatch's render is paired with the raw reference once a round too.
        #expect(result.stopwatch?.cpuByRound.count == rounds)
        #expect(result.parallel.map(\.name) == ["check of 2 scripts", "samples of 2 scripts"])
        #expect(result.cache.count == 2)
        #expect(ScriptBench.parallelPairsPerRound == 3)
        for row in result.parallel {
            #expect(row.pairRatios.count == rounds * ScriptBench.parallelPairsPerRound, "\(row.name)")
            #expect(row.pairRatios.allSatisfy { $0 > 0 }, "\(row.name): \(row.pairRatios)")
            // The machine's own reference with each pair: the raw reference in two parts, one after another and
            // side by side.
            #expect(row.machine.count == row.pairRatios.count, "\(row.name)")
            #expect(row.machineParts == 2, "\(row.name)")
            #expect(
                row.machine.allSatisfy {
                    $0.oneAfterAnother > 0 && $0.sideBySide > 0 && $0.cpuOneAfterAnother > 0 && $0.cpuSideBySide > 0
                }, "\(row.name): \(row.machine)")
        }
        // Every target is read against what this run measured, each parallel one beside its machine reference.
        let targets = BenchTarget.all(in: result)
        #expect(
            targets.map(\.subject)
                == [
                    "render of 2 scripts", "check of 2 scripts", "check of a 2 s stopwatch",
                    "check of 2 scripts on 2 jobs", "samples of 2 scripts on 2 jobs",
                ])
        #expect(targets.allSatisfy { $0.measured > 0 }, "\(targets)")
        #expect(targets.map { $0.machine != nil } == [false, false, false, true, true])
        #expect(BenchTable.scripts(result).contains("\ntarget "))
    }
}

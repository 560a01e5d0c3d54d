import EarshotAudio
import EarshotCore
import EarshotScript
import EarshotSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `earshot bench --scaling`: generated workloads of growing size, each run by `earshot check` and
/// `earshot render` in child processes, with the fitted growth exponent per workload.
extension BenchCommand {
    /// One workload size's measurements.
    public struct ScalingRow: Sendable {
        /// The workload's name.
        public var workload: String
        /// The size (in the workload's unit).
        public var size: Int
        /// `earshot check` of the script.
        public var check: ChildUsage
        /// `earshot render` of the script.
        public var render: ChildUsage
        /// CPU seconds raw espeak-ng takes to speak the heard text, measured in this process.
        public var rawHeard: Double
    }

    /// One workload's fitted exponents (nil with fewer than two sizes).
    public struct ScalingFitRow: Sendable {
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

    /// Runs `workloads` at `sizes(workload)` through `executable` and returns the rows, the fits and the start-up
    /// baseline (an empty run's check and render).
    public static func scaling(
        _ workloads: [ScalingWorkload], sizes: (ScalingWorkload) -> [Int], executable: String,
        speech base: ScenarioInputs.Speech, progress: (String) -> Void = { _ in }
    ) throws -> (rows: [ScalingRow], fits: [ScalingFitRow], baseline: (check: ChildUsage, render: ChildUsage)) {
        let scratch = NSTemporaryDirectory() + "earshot-scaling-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        _ = try base.synthesizer.synthesize("Ready.", voice: RenderOutputs.labelVoice(base))

        func measure(_ path: String) throws -> (check: ChildUsage, render: ChildUsage) {
            let errors = scratch + "/stderr"
            var voices: [String] = []
            if let folder = base.library?.directory { voices = ["--voices", folder] }
            let check = try ChildUsage.measure(
                executable, ["check", "--quiet", "--no-cache"] + voices + [path], errorPath: errors)
            // A generated script has no checks: anything but a pass is a broken run, not a measurement.
            guard check.status == 0 else { throw failure("check", path, check, errors) }
            let render = try ChildUsage.measure(
                executable, ["render", "--no-cache"] + voices + ["-o", scratch + "/out.wav", path], errorPath: errors)
            guard render.status == 0 else { throw failure("render", path, render, errors) }
            return (check, render)
        }
        let empty = scratch + "/empty.earshot"
        try AtomicFile.write(ScalingWorkload.rapid(events: 1), to: empty)
        let baseline = try measure(empty)

        // Every child runs before this process simulates anything itself: a child's `ru_maxrss` starts from the
        // resident size of the process that spawned it (Linux carries the pre-exec memory's high-water mark over
        // exec), so the spawner must stay as small as a bare start-up while children run.
        var children: [[(size: Int, path: String, check: ChildUsage, render: ChildUsage)]] = []
        for workload in workloads {
            var measured: [(size: Int, path: String, check: ChildUsage, render: ChildUsage)] = []
            for size in sizes(workload) {
                progress("\(workload.name) \(size) \(workload.unit)")
                let path = scratch + "/\(workload.name)-\(size).earshot"
                try AtomicFile.write(workload.script(size), to: path)
                let (check, render) = try measure(path)
                measured.append((size, path, check, render))
            }
            children.append(measured)
        }
        var rows: [ScalingRow] = []
        var fits: [ScalingFitRow] = []
        for (workload, runs) in zip(workloads, children) {
            var measured: [ScalingRow] = []
            for run in runs {
                let document = try ScenarioInputs.parse([run.path])[0]
                var speech = base
                speech.speech = SpeechLibrary(synthesizer: try base.synthesizer)
                let timeline = try ScenarioInputs.run(
                    document, speech: speech, arguments: ParsedArguments(command: "bench")
                ).timeline
                let (heard, _) = rawTexts(timeline, narrator: RenderOutputs.narratorVoice(base))
                let raw = try cpuSeconds {
                    for (text, voice) in heard { _ = try base.synthesizer.synthesize(text, voice: voice) }
                }
                measured.append(
                    ScalingRow(
                        workload: workload.name, size: run.size, check: run.check, render: run.render, rawHeard: raw))
            }
            rows += measured
            func fit(_ cost: (ScalingRow) -> Double, _ start: Double, floor: Double) -> Double? {
                ScalingFit.exponent(measured.map { ($0.size, cost($0)) }, baseline: start, floor: floor)
            }
            fits.append(
                ScalingFitRow(
                    workload: workload.name, checkCPU: fit(\.check.cpu, baseline.check.cpu, floor: 0.01),
                    checkMemory: fit(
                        { Double($0.check.peakKilobytes) }, Double(baseline.check.peakKilobytes), floor: 1024),
                    renderCPU: fit(\.render.cpu, baseline.render.cpu, floor: 0.01),
                    renderMemory: fit(
                        { Double($0.render.peakKilobytes) }, Double(baseline.render.peakKilobytes), floor: 1024)))
        }
        return (rows, fits, baseline)
    }

    static func failure(_ command: String, _ path: String, _ usage: ChildUsage, _ errors: String) -> CommandFailure {
        let text = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        return CommandFailure(
            "\(command) \(path) exited with status \(usage.status): "
                + text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The CPU seconds (user + system) this process spends in `work`.
    static func cpuSeconds(_ work: () throws -> Void) throws -> Double {
        func now() -> Double {
            var usage = rusage()
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
            return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
                + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        }
        let started = now()
        try work()
        return now() - started
    }

    /// The scaling table: one line per workload size, then one line of fitted exponents per workload.
    public static func scalingTable(
        _ rows: [ScalingRow], fits: [ScalingFitRow], baseline: (check: ChildUsage, render: ChildUsage)
    ) -> String {
        func seconds(_ value: Double) -> String { String(format: "%.2f", value) }
        func megabytes(_ kilobytes: Int) -> String { String(kilobytes / 1024) }
        func ratio(_ cost: Double, _ raw: Double) -> String { raw > 0 ? String(format: "%.2f×", cost / raw) : "—" }
        func exponent(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "—" }
        let header = [
            "workload", "size", "check wall s", "check CPU s", "check MB", "render wall s", "render CPU s",
            "render MB", "raw heard CPU s", "check/raw", "render/raw",
        ]
        var lines = rows.map { row in
            [
                row.workload, String(row.size), seconds(row.check.wall), seconds(row.check.cpu),
                megabytes(row.check.peakKilobytes), seconds(row.render.wall), seconds(row.render.cpu),
                megabytes(row.render.peakKilobytes), seconds(row.rawHeard), ratio(row.check.cpu, row.rawHeard),
                ratio(row.render.cpu, row.rawHeard),
            ]
        }
        lines.insert(
            [
                "start-up", "0", seconds(baseline.check.wall), seconds(baseline.check.cpu),
                megabytes(baseline.check.peakKilobytes), seconds(baseline.render.wall), seconds(baseline.render.cpu),
                megabytes(baseline.render.peakKilobytes), "—", "—", "—",
            ], at: 0)
        var text = aligned(header, lines)
        text += "\nfitted exponent of cost above start-up over sizes (1 = linear, 2 = quadratic; over "
        text += String(format: "%.1f", ScalingFit.linearLimit) + " is flagged):\n"
        let fitLines = fits.map { fit in
            [
                fit.workload, exponent(fit.checkCPU), exponent(fit.checkMemory), exponent(fit.renderCPU),
                exponent(fit.renderMemory),
                fit.superlinear.isEmpty ? "linear" : "SUPERLINEAR: " + fit.superlinear.joined(separator: ", "),
            ]
        }
        text += aligned(["workload", "check CPU", "check MB", "render CPU", "render MB", "verdict"], fitLines)
        return text
    }

    /// Columns padded to their widest cell: the first left-aligned, the rest right-aligned (the last left too).
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

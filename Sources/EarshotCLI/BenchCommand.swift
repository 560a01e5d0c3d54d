import EarshotAudio
import EarshotCore
import EarshotScript
import EarshotSystem
import Foundation

/// `earshot bench`: how fast rendering is, against raw espeak-ng, measured in the same run.
///
/// For each script (default: every script under `Scripts/`) it times a full render (engine run plus mix to a
/// temporary WAV, with a fresh speech cache), then times the process's espeak-ng synthesizing (a) exactly the
/// heard text (each heard utterance's heard part, each heard narration line) and (b) every posted utterance in
/// full, with the same voices. It prints render time, audio length, real-time factor and the two ratios; the
/// targets are ≤ 1.2× (a) and < 1.0× (b). Then it renders a generated stopwatch scenario (`--stopwatch`, an
/// hour by default) streamed to disk and reports its time and the process's peak resident memory (VmHWM).
/// With `--scaling` it runs the generated workloads of `ScalingWorkload` instead (see `BenchCommand+Scaling`).
public struct BenchCommand: Command {
    /// Creates the command.
    public init() {}

    public let signature = CommandSignature(
        name: "bench", summary: "Time renders against raw espeak-ng, and a long stopwatch render's memory.",
        arguments: [
            ArgumentSpec("path", arity: .zeroOrMore, help: "Scripts, folders or patterns (default: Scripts/).")
        ],
        options: [
            .value(
                "stopwatch", valueName: "seconds", help: "Length of the stopwatch render; 0 skips it.",
                defaultValue: "3600"),
            VoiceOptions.voices,
            .flag(
                "scaling",
                help: "Run generated workloads of growing size through check and render in child processes; fit "
                    + "each workload's growth exponent."),
            .flag("quick", help: "With --scaling: small sizes only (seconds in all)."),
            .value(
                "workload", valueName: "names",
                help: "With --scaling: only these workloads, comma-separated ("
                    + ScalingWorkload.all.map(\.name).joined(separator: ", ") + ")."),
            .value("steps", valueName: "n", help: "With --scaling: only the n smallest sizes of each workload."),
            .value(
                "earshot", valueName: "path",
                help: "With --scaling: the earshot executable to measure (default: this one)."),
        ],
        examples: ["bench", "bench announcement-spam --stopwatch 0", "bench --scaling --steps 3"])

    /// One script's measurements.
    struct Row {
        var name: String
        var render: Double
        var audio: Double
        var heardRaw: Double
        var postedRaw: Double
    }

    public func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        if arguments.flag("scaling") { return try runScaling(arguments, context: context) }
        var words = arguments.arguments("path")
        if words.isEmpty {
            guard let scripts = ScenarioInputs.scriptsFolder() else {
                throw CommandFailure("no Scripts/ folder here or above; name the scripts to time")
            }
            words = [scripts]
        }
        guard let seconds = Int(arguments.value("stopwatch") ?? "3600"), seconds >= 0 else {
            throw UsageError("--stopwatch takes whole seconds")
        }
        let paths = try ScenarioInputs.scriptPaths(words, context: context)
        let documents = try ScenarioInputs.parse(paths)
        let base = try ScenarioInputs.speech(arguments, context: context, phraseCache: false)
        let scratch = NSTemporaryDirectory() + "earshot-bench-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let quiet = CommandContext(writeOutput: { _ in }, writeError: { _ in }, environment: context.environment)
        // One warm-up synthesis so neither side pays espeak-ng's first-call cost.
        _ = try base.synthesizer.synthesize("Ready.", voice: RenderOutputs.labelVoice(base))

        // Each side runs `rounds` times, interleaved (render, raw a, raw b, render, …), and the fastest round of
        // each counts: neither side profits from running second with espeak-ng's caches warm, and a stray
        // scheduling hiccup does not decide a ratio. Every render round starts from an empty speech cache.
        let rounds = 3
        var rows: [Row] = []
        for (path, document) in zip(paths, documents) {
            var best = (render: Double.infinity, heard: Double.infinity, posted: Double.infinity)
            var audio = 0.0
            for _ in 0..<rounds {
                var speech = base
                speech.speech = SpeechLibrary(synthesizer: try base.synthesizer)
                let wav = scratch + "/bench.wav"
                let started = Date()
                let run = try ScenarioInputs.run(document, speech: speech, arguments: ParsedArguments(command: "bench"))
                let rendered = try RenderOutputs.render(
                    [.run(name: URLPath.stem(path), run)], to: wav, speech: speech, context: quiet)
                best.render = min(best.render, Date().timeIntervalSince(started))
                audio = rendered.duration.seconds
                let narrator = RenderOutputs.narratorVoice(base)
                let (heard, posted) = Self.rawTexts(run.timeline, narrator: narrator)
                // Nothing to speak (a muted run) is no comparison: shown as "—".
                best.heard = min(best.heard, heard.isEmpty ? 0 : try Self.time(heard, synthesizer: base.synthesizer))
                best.posted = min(
                    best.posted, posted.isEmpty ? 0 : try Self.time(posted, synthesizer: base.synthesizer))
            }
            let name = path.split(separator: "/").suffix(2).joined(separator: "/")
            rows.append(
                Row(name: name, render: best.render, audio: audio, heardRaw: best.heard, postedRaw: best.posted))
        }
        context.writeOutput(Self.table(rows))
        if seconds > 0 {
            context.print("")
            context.print(try stopwatch(seconds: seconds, speech: base, scratch: scratch, context: quiet))
        }
        return ExitCode.success
    }

    /// `bench --scaling`: the chosen workloads at the chosen sizes, as a table with fitted exponents.
    func runScaling(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        var workloads = ScalingWorkload.all
        if let names = arguments.value("workload") {
            let wanted = names.split(separator: ",").map(String.init)
            for name in wanted where !workloads.contains(where: { $0.name == name }) {
                throw UsageError(
                    "--workload: no workload '\(name)' (there are "
                        + workloads.map(\.name).joined(separator: ", ") + ")")
            }
            workloads = workloads.filter { wanted.contains($0.name) }
        }
        var steps = Int.max
        if let text = arguments.value("steps") {
            guard let number = Int(text), number >= 1 else { throw UsageError("--steps takes a whole number ≥ 1") }
            steps = number
        }
        let quick = arguments.flag("quick")
        let executable =
            arguments.value("earshot")
            ?? ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0])
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw CommandFailure("\(executable): not an executable earshot")
        }
        let speech = try ScenarioInputs.speech(arguments, context: context, phraseCache: false)
        let result = try Self.scaling(
            workloads, sizes: { Array((quick ? $0.quickSizes : $0.sizes).prefix(steps)) }, executable: executable,
            speech: speech, progress: { context.printError("bench: " + $0) })
        context.writeOutput(Self.scalingTable(result.rows, fits: result.fits, baseline: result.baseline))
        return ExitCode.success
    }

    /// The texts raw espeak-ng speaks for comparison: (a) what was heard, (b) every posted utterance in full;
    /// heard media narration is in both.
    static func rawTexts(_ timeline: Timeline, narrator: VoiceProfile) -> (
        heard: [(String, VoiceProfile)], posted: [(String, VoiceProfile)]
    ) {
        var narration: [(String, VoiceProfile)] = []
        for event in timeline.events {
            if case .media(let track, let heard) = event.kind, heard {
                narration += track.narration.map { ($0.text, narrator) }
            }
        }
        let heard = timeline.utterances.filter { $0.heardFrames > 0 && !$0.heardText.isEmpty }
            .map { ($0.heardText, $0.voice) }
        let posted = timeline.utterances.map { ($0.utterance.text, $0.voice) }
        return (heard + narration, posted + narration)
    }

    /// Seconds the synthesizer takes to speak every text in full, one call each.
    static func time(_ texts: [(String, VoiceProfile)], synthesizer: EspeakSynthesizer) throws -> Double {
        let started = Date()
        for (text, voice) in texts { _ = try synthesizer.synthesize(text, voice: voice) }
        return Date().timeIntervalSince(started)
    }

    static func table(_ rows: [Row]) -> String {
        func format(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
        func ratio(_ render: Double, _ raw: Double) -> String { raw > 0 ? format(render / raw, 2) + "×" : "—" }
        let header = ["script", "render s", "audio s", "RTF", "vs heard (a)", "vs posted (b)"]
        var lines = rows.map { row in
            [
                row.name, format(row.render, 3), format(row.audio, 2), format(row.render / max(row.audio, 1e-9), 4),
                ratio(row.render, row.heardRaw), ratio(row.render, row.postedRaw),
            ]
        }
        let total = Row(
            name: "total", render: rows.map(\.render).reduce(0, +), audio: rows.map(\.audio).reduce(0, +),
            heardRaw: rows.map(\.heardRaw).reduce(0, +), postedRaw: rows.map(\.postedRaw).reduce(0, +))
        lines.append([
            total.name, format(total.render, 3), format(total.audio, 2),
            format(total.render / max(total.audio, 1e-9), 4), ratio(total.render, total.heardRaw),
            ratio(total.render, total.postedRaw),
        ])
        let widths = header.indices.map { column in ([header] + lines).map { $0[column].count }.max() ?? 0 }
        func row(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
        var text = row(header) + "\n" + row(widths.map { String(repeating: "-", count: $0) }) + "\n"
        text += lines.dropLast().map(row).joined(separator: "\n") + "\n"
        text += row(widths.map { String(repeating: "-", count: $0) }) + "\n" + row(lines[lines.count - 1]) + "\n"
        text += "targets: render ≤ 1.2× raw espeak-ng on the heard text (a), < 1.0× on every posted utterance (b)\n"
        return text
    }

    /// Renders a focused `updatesFrequently` stopwatch for `seconds` and reports time and peak memory.
    func stopwatch(seconds: Int, speech base: ScenarioInputs.Speech, scratch: String, context: CommandContext) throws
        -> String
    {
        let script = scratch + "/stopwatch.earshot"
        try AtomicFile.write(Self.stopwatchScript(seconds: seconds), to: script)
        let document = try ScenarioInputs.parse([script])[0]
        var speech = base
        speech.speech = SpeechLibrary(synthesizer: try base.synthesizer)
        let before = Self.memory("VmHWM")
        let started = Date()
        let run = try ScenarioInputs.run(document, speech: speech, arguments: ParsedArguments(command: "bench"))
        let simulated = Date().timeIntervalSince(started)
        let rendered = try RenderOutputs.render(
            [.run(name: "stopwatch", run)], to: scratch + "/stopwatch.wav", speech: speech, context: context)
        let total = Date().timeIntervalSince(started)
        let size = (try? FileManager.default.attributesOfItem(atPath: rendered.wavPath)[.size] as? Int) ?? 0
        func megabytes(_ kilobytes: Int?) -> String { kilobytes.map { "\($0 / 1024) MB" } ?? "?" }
        let summary = String(
            format: "stopwatch %ds (updatesFrequently, focused): %@ of audio, %d utterances heard; rendered in "
                + "%.2fs (engine %.2fs, mix %.2fs), %.1f MB WAV streamed to disk",
            seconds, rendered.duration.description, run.timeline.heardUtterances.count, total, simulated,
            total - simulated, Double(size) / 1e6)
        return summary + "; peak RSS (VmHWM) \(megabytes(Self.memory("VmHWM"))) (before it: \(megabytes(before)))"
    }

    /// The stopwatch scenario: a timer label ticking every second, focused the whole time.
    static func stopwatchScript(seconds: Int) -> String {
        """
        title    "A stopwatch focused for \(seconds) seconds"
        pattern  updates-frequently
        variant  after
        profile  voiceover
        poll     1s

        screen Stopwatch
          text   stopwatch "00:00:00"  trait updatesFrequently

        at 0s       every 1s for \(seconds)s set stopwatch label "{clock}"
        at 0.5s     focus stopwatch
        wait 1s

        """
    }

    /// A `/proc/self/status` value in kB (`VmHWM`, `VmRSS`), nil where there is none.
    static func memory(_ key: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(key + ":") {
            return Int(line.dropFirst(key.count + 1).split(whereSeparator: \.isWhitespace).first ?? "")
        }
        return nil
    }
}

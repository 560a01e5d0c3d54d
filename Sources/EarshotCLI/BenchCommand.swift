import EarshotAudio
import EarshotBench
import EarshotCore
import EarshotReport
import EarshotSystem
import Foundation

/// `earshot bench`: Earshot's speed against raw espeak-ng speaking the same text, measured in the same run,
/// every side in a child process of its own (``ScriptBench``, ``ScalingBench``; the tables: ``BenchTable``).
///
/// `--heard-phrases` and `--raw` are the two children the benchmark starts for its reference: one lists
/// what a script's run makes heard, the other speaks such a list with plain espeak-ng.
public struct BenchCommand: Command {
    /// Creates the command.
    public init() {}

    static let heardPhrases = OptionSpec.value(
        "heard-phrases", valueName: "file",
        help: "Write the text one script's run makes heard, with its voices, to this file and stop (the "
            + "benchmark's reference reads it).")
    static let raw = OptionSpec.value(
        "raw", valueName: "file",
        help: "Speak the phrases of a --heard-phrases file with plain in-process espeak-ng and stop (the "
            + "benchmark's reference).")
    static let standIn = OptionSpec.flag(
        "stand-in",
        help: "With --raw: load espeak-ng as earshot does, with its stand-in playback library (the second "
            + "reference).")

    public let signature = CommandSignature(
        name: "bench", summary: "Time check and render against raw espeak-ng on the same speech.",
        discussion: """
            Each run ends with a table of the targets it measured, met or missed; the run exits 1 when one was \
            missed, naming it on standard error.
            """,
        arguments: [
            ArgumentSpec("path", arity: .zeroOrMore, help: "Scripts, folders or patterns (default: Scripts/).")
        ],
        options: [
            .value(
                "stopwatch", valueName: "seconds",
                help: "Length of the stopwatch checked cold and warm and rendered; 0 skips it.", defaultValue: "3600"),
            .value(
                "rounds", valueName: "n",
                help:
                    "Paired runs per measurement; medians count (with --scaling: the cold check and the reference of "
                    + "each size whose check takes under \(ScalingBench.repeatedBelowSeconds) s of CPU, and of each "
                    + "workload's largest).",
                defaultValue: "3"),
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
                "earshot", valueName: "path", help: "The earshot executable to measure (default: this one)."),
            heardPhrases, raw, standIn,
        ],
        examples: ["bench", "bench announcement-spam --stopwatch 0", "bench --scaling --steps 3"])

    /// Only its children speak (`--raw`, `--heard-phrases`); the measuring parent never opens espeak-ng.
    public func speaks(_ arguments: ParsedArguments, context: CommandContext) -> Bool {
        arguments.value("raw") != nil || arguments.value("heard-phrases") != nil
    }

    /// The reference (`--raw`) is plain espeak-ng, loaded as any program loads it: with its real playback
    /// library (about 30 more libraries), not Earshot's stand-in; with `--stand-in`, loaded as Earshot loads it.
    public func loadsPlainEspeak(_ arguments: ParsedArguments) -> Bool {
        arguments.value(Self.raw.long) != nil && !arguments.flag(Self.standIn.long)
    }

    public func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        if let list = arguments.value(Self.raw.long) { return try speakRaw(list, arguments, context: context) }
        if let list = arguments.value(Self.heardPhrases.long) {
            return try writeHeardPhrases(list, arguments, context: context)
        }
        try Self.checkMode(arguments)
        let runner = try BenchRunner(
            executable: try executable(arguments),
            voicesDirectory: VoiceLibrary.locateDirectory(
                explicit: arguments.value(VoiceOptions.voices.long), environment: context.environment))
        defer { runner.removeScratch() }
        if context.catchesInterrupts {
            // Ctrl-C or SIGTERM: the children end (each removes its own temporaries), then the scratch folder goes,
            // which holds the outputs of a long render (a 4-hour stopwatch: hundreds of megabytes).
            InterruptCleanup.onInterrupt {
                BenchChildren.stopAll()
                runner.removeScratch()
            }
        }
        let progress = { (line: String) in context.printError("bench: " + line) }
        let stolenBefore = StolenTime.now()
        // The share of processor time the hypervisor took meanwhile, under the tables.
        func stolenLine() -> String {
            guard let stolenBefore, let share = StolenTime.now()?.share(since: stolenBefore) else { return "" }
            return "\n" + StolenTime.line(share: share)
        }
        guard let rounds = Int(arguments.value("rounds") ?? "3"), rounds >= 1 else {
            throw UsageError("--rounds takes a whole number ≥ 1")
        }
        if arguments.flag("scaling") {
            let (workloads, steps) = try Self.workloads(arguments)
            let quick = arguments.flag("quick")
            let result = try ScalingBench(runner: runner, rounds: rounds).run(
                workloads, sizes: { Array((quick ? $0.quickSizes : $0.sizes).prefix(steps)) }, progress: progress)
            context.writeOutput(BenchTable.scaling(result) + stolenLine())
            return Self.status(BenchTarget.all(in: result), context: context)
        }
        var words = arguments.arguments("path")
        var samplesOf: String?
        if words.isEmpty {
            guard let scripts = ScenarioInputs.scriptsFolder() else {
                throw CommandFailure("no Scripts/ folder here or above; name the scripts to time")
            }
            words = [scripts]
            samplesOf = scripts
        }
        guard let seconds = Int(arguments.value("stopwatch") ?? "3600"), seconds >= 0 else {
            throw UsageError("--stopwatch takes whole seconds")
        }
        let paths = try ScenarioInputs.scriptPaths(words, context: context)
        _ = try ScenarioInputs.parse(paths)
        var bench = ScriptBench(runner: runner)
        bench.rounds = rounds
        let result = try bench.run(
            paths, name: { $0.split(separator: "/").suffix(2).joined(separator: "/") }, stopwatchSeconds: seconds,
            samplesOf: samplesOf, progress: progress)
        context.writeOutput(BenchTable.scripts(result) + stolenLine())
        return Self.status(BenchTarget.all(in: result), context: context)
    }

    /// The run's exit status: 0 when it met every target it measured, 1 when it missed one, each missed target
    /// named on standard error, so a script or a CI job can act on a run's verdict without reading its tables.
    /// A missed parallel target whose machine reference fell short too still fails: the run did not show it.
    static func status(_ targets: [BenchTarget], context: CommandContext) -> Int32 {
        let missed = targets.filter { !$0.met }
        guard !missed.isEmpty else { return ExitCode.success }
        let names = missed.map { $0.subject + " (" + $0.requirement + ")" }
        context.printError(
            "bench: \(missed.count) of \(targets.count) target\(targets.count == 1 ? "" : "s") missed: "
                + names.joined(separator: "; "))
        return ExitCode.failure
    }

    /// `--workload` and `--steps`, checked.
    /// Refuses options of the other bench: a `bench --quick` that ran the whole script bench instead (a minute or
    /// more), or a `--stopwatch` that `--scaling` quietly ignored, measures something the user did not ask for.
    static func checkMode(_ arguments: ParsedArguments) throws {
        if arguments.flag("scaling") {
            if !arguments.arguments("path").isEmpty {
                throw UsageError("--scaling times workloads it makes itself; it takes no scripts")
            }
            if arguments.value("stopwatch") != nil {
                throw UsageError("--stopwatch is the script bench's; --scaling times its own (--workload stopwatch)")
            }
        } else {
            let given = [arguments.flag("quick"), arguments.value("workload") != nil, arguments.value("steps") != nil]
            if let option = zip(["--quick", "--workload", "--steps"], given).first(where: \.1)?.0 {
                throw UsageError("\(option) applies only with --scaling (earshot bench --scaling \(option) …)")
            }
        }
    }

    static func workloads(_ arguments: ParsedArguments) throws -> ([ScalingWorkload], Int) {
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
        guard let text = arguments.value("steps") else { return (workloads, Int.max) }
        guard let steps = Int(text), steps >= 1 else { throw UsageError("--steps takes a whole number ≥ 1") }
        return (workloads, steps)
    }

    /// `--earshot`, else this executable.
    func executable(_ arguments: ParsedArguments) throws -> String {
        arguments.value("earshot")
            ?? ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0])
    }

    /// `--heard-phrases FILE SCRIPT`: what a headless run of the script makes heard, as the synthesizer is given
    /// it (normalized), with the voices: each heard utterance's heard part, each heard narration line.
    func writeHeardPhrases(_ list: String, _ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        let paths = try ScenarioInputs.scriptPaths(arguments.arguments("path"), context: context)
        guard paths.count == 1 else { throw UsageError("--heard-phrases takes exactly one script") }
        let speech = try ScenarioInputs.speech(arguments, context: context, keepingAudio: false)
        let run = try ScenarioInputs.run(try ScenarioInputs.parse(paths)[0], speech: speech, arguments: arguments)
        let narrator = RenderOutputs.narratorVoice(speech)
        var phrases = run.timeline.utterances.filter { $0.heardFrames > 0 && !$0.heardText.isEmpty }.map {
            PhraseList.Phrase(
                text: speech.speech.speechText(for: $0.heardText, voice: $0.voice).spoken, voice: $0.voice)
        }
        for event in run.timeline.events {
            if case .media(let track, let heard) = event.kind, heard {
                phrases += track.narration.map {
                    PhraseList.Phrase(
                        text: speech.speech.speechText(for: $0.text, voice: narrator).spoken, voice: narrator)
                }
            }
        }
        try AtomicFile.write(PhraseList(phrases).text, to: list)
        return ExitCode.success
    }

    /// `--raw FILE`: the reference itself.
    func speakRaw(_ list: String, _ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        let text: String
        do {
            text = try String(contentsOfFile: list, encoding: .utf8)
        } catch {
            throw CommandFailure("\(list): cannot read it: \(error.localizedDescription)")
        }
        let phrases = try PhraseList(parsing: text, path: list).phrases
        let directory = VoiceLibrary.locateDirectory(
            explicit: arguments.value(VoiceOptions.voices.long), environment: context.environment)
        let result = try RawEspeakReference.speak(phrases.map { ($0.text, $0.voice) }, voicesDirectory: directory)
        context.print("\(result.phrases) phrases, \(result.frames) frames at \(result.sampleRate) Hz")
        return ExitCode.success
    }
}

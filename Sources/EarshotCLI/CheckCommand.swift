import EarshotAudio
import EarshotCore
import EarshotReport
import EarshotScript
import EarshotSystem
import Foundation

/// `earshot check PATH...`: runs scenario scripts headlessly with real espeak-ng durations and judges them.
///
/// Prints each check as pass or fail with its evidence, then the findings (the cards' anti-patterns, found
/// whatever the checks say). Exit status: 0 when every check passes, 1 when any fails (or a recorded
/// `NAME.transcript` no longer matches the run), 2 when a script is
/// malformed (nothing runs then), 64 for a bad command line. With `--expect-variants`, a `before` script is
/// expected to fail at least one check and an `after` script to pass all: the status says whether they did.
public struct CheckCommand: Command {
    /// Creates the command.
    public init() {}

    public let signature = CommandSignature(
        name: "check", summary: "Run scenario scripts headlessly and judge their checks.",
        discussion: """
            PATH is a script, a folder of scripts, or a pattern name (a folder under Scripts/). Each check \
            prints ✔ or ✘ with the evidence: times, the phrases heard, what cut what. Findings name the \
            cards' anti-patterns with a rule id, an impact and the page to read (docs/patterns/).
            """,
        arguments: [ArgumentSpec("path", arity: .oneOrMore, help: "Scripts, folders or pattern names.")],
        options: [
            ScenarioInputs.profileOption,
            ReaderOptions.reader,
            VoiceOptions.voice,
            VoiceOptions.voices,
            CacheOptions.noCache,
            CheckResults.rerunOption,
            CacheOptions.jobs,
            .value("junit", valueName: "file.xml", help: "Also write the results as JUnit XML."),
            .flag("transcript", help: "Print each run's timeline as a transcript."),
            .value(
                "jsonl", valueName: "folder",
                help: "Also write each run's timeline as JSON Lines, FOLDER/<pattern>-<script>.jsonl."),
            .flag("expect-variants", help: "Pass when every before script fails a check and every after passes."),
            .flag("quiet", short: "q", help: "Print only failing checks and the summary."),
        ] + CheckOutputs.options + [CheckWatch.option],
        examples: [
            "check Scripts/",
            "check announcement-spam --transcript",
            "check --expect-variants --junit results.xml Scripts/",
            "check --profile switch-control Scripts/skeleton-noise/after-switch-control.earshot",
            "check --format json --sarif findings.sarif Scripts/",
            "check --record Scripts/   (then: check Scripts/ fails when a timeline changes; --update accepts)",
            "check --watch Scripts/announcement-spam/",
        ])

    /// It speaks unless the phrase cache answers (then it never opens espeak-ng).
    public func speaks(_ arguments: ParsedArguments, context: CommandContext) -> Bool {
        CacheOptions.needsEspeak(arguments, environment: context.environment)
    }

    /// When it speaks, espeak-ng starts while its scripts are read.
    public func startsEngineEarly(_ arguments: ParsedArguments, context: CommandContext) -> Bool {
        speaks(arguments, context: context)
    }

    public func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        let outputs = try CheckOutputs(arguments)
        if arguments.flag(CheckWatch.option.long) {
            return try CheckWatch.loop(arguments, words: arguments.arguments("path"), context: context) {
                try runOnce(arguments, outputs, context)
            }
        }
        return try runOnce(arguments, outputs, context)
    }

    /// One check of the command line's scripts: replayed when an identical run is remembered (``CheckResults``),
    /// else run, and remembered when it may be.
    func runOnce(_ arguments: ParsedArguments, _ outputs: CheckOutputs, _ context: CommandContext) throws -> Int32 {
        let paths = try ScenarioInputs.scriptPaths(arguments.arguments("path"), context: context)
        guard let store = CheckResults.store(arguments, context: context) else {
            return try run(paths, arguments, outputs, context, files: CheckResults.Recording(keeping: false))
        }
        let before = CheckResults.key(arguments, paths: paths, context: context)
        if let key = before?.text, let payload = store.load(key: key),
            let exitCode = try CheckResults.replay(payload, context: context)
        {
            return exitCode
        }
        let recording = CheckResults.Recording(keeping: true)
        let exitCode = try run(paths, arguments, outputs, recording.context(wrapping: context), files: recording)
        // A cache write that fails among the run's last ones warns while they finish: such a run is not remembered.
        PhraseCache.finishWrites()
        if let before, let after = CheckResults.key(arguments, paths: paths, context: context),
            after.follows(before), let key = after.text, let payload = recording.payload(exitCode: exitCode)
        {
            store.store(payload, key: key)
        }
        return exitCode
    }

    /// Runs and judges `paths`, writing the reports; the files it writes go through `files`.
    private func run(
        _ paths: [String], _ arguments: ParsedArguments, _ outputs: CheckOutputs, _ context: CommandContext,
        files: CheckResults.Recording
    ) throws -> Int32 {
        let jobs = try CacheOptions.jobs(arguments)
        let documents = try ScenarioInputs.parse(paths, jobs: jobs)
        let speech = try ScenarioInputs.speech(arguments, context: context, keepingAudio: false)
        let quiet = arguments.flag("quiet")
        let expectVariants = arguments.flag("expect-variants")
        let style = TerminalStyle(context: context)
        var reports: [RunReport] = []
        var golden: [GoldenTranscript.Verdict] = []
        // Scripts run side by side (up to --jobs), and are reported in order as a serial run would. Each script's
        // phrases go to a free espeak-ng helper (one per core), so at most --jobs phrases are in flight. The longest
        // scenarios start first: a 60 s script taken last ran alone for 70 ms after the others were done.
        let longestFirst = documents.indices.sorted {
            (documents[$0].endTime, $1) > (documents[$1].endTime, $0)
        }
        try ParallelRuns.forEach(count: documents.count, jobs: jobs, startOrder: longestFirst) { index in
            RunReport(run: try ScenarioInputs.run(documents[index], speech: speech, arguments: arguments))
        } deliver: { _, report in
            let run = report.run
            reports.append(report)
            golden.append(try outputs.goldenVerdict(for: run))
            guard outputs.printsText else { return }
            context.writeOutput(report.text(quiet: quiet, style: style))
            context.writeOutput(golden[golden.count - 1].text(style: style))
            if arguments.flag("transcript") { context.writeOutput(run.timeline.transcript() + "\n") }
        }
        if let junit = arguments.value("junit") {
            try files.write(JUnitReport.xml(reports, expectVariants: expectVariants), to: junit)
        }
        if let folder = arguments.value("jsonl") {
            try files.createFolder(folder)
            for report in reports {
                let path = report.run.document.path
                let pattern = URL(fileURLWithPath: path).deletingLastPathComponent().lastPathComponent
                let name = folder + "/" + pattern + "-" + PathText.stem(path) + ".jsonl"
                try files.write(report.run.timeline.jsonLines(), to: name)
            }
        }
        // The run's timings go to the folder now, not at exit: `--watch` runs on, and may be stopped with Ctrl-C.
        PhraseCache.writeQueuedPacks()
        let checkReport = CheckReport(reports, golden: golden)
        try outputs.finish(checkReport, context: context, write: { try files.write($0, to: $1) })
        let changed = checkReport.changedTranscripts.count
        let printsText = outputs.printsText
        let print: (String) -> Void = { line in if printsText { context.print(line) } }
        print(checkReport.summaryLine)
        if expectVariants {
            for script in checkReport.unexpectedVariants { context.printError(CheckReport.variantProblem(script)) }
            print(checkReport.variantsLine)
            return checkReport.unexpectedVariants.isEmpty && changed == 0 ? ExitCode.success : ExitCode.failure
        }
        return checkReport.failedChecks == 0 && changed == 0 ? ExitCode.success : ExitCode.failure
    }
}

import EarshotCore
import EarshotReport
import EarshotScript
import EarshotSystem
import Foundation

/// The `earshot` command's entry point: finds the subcommand, parses its words, runs it, and turns
/// the outcome into an exit status.
///
/// 1. No words: the overview goes to stderr, status 64.
/// 2. `--help`/`-h`/`help`: the overview (or `help <command>`: that command's help) to stdout, 0.
/// 3. `--version`: `earshot 0.1.0`, 0.
/// 4. Otherwise the first word names a command; the rest is parsed with `ArgumentParser` against the
///    command's signature and the command runs. See `ExitCode` for the statuses.
public enum Earshot {
    /// The version `earshot --version` prints.
    public static let version = ToolVersion.current

    /// One line under the program name in the overview.
    public static let summary =
        "Hear what a VoiceOver user hears: speak text and scenarios with the real espeak-ng."

    /// Runs the process's command line and exits with its status (1 when standard output could not be written,
    /// for example `> /dev/full`).
    public static func main() -> Never {
        let context = CommandContext.standard(environment: ProcessEnvironment.current)
        let status = run(Array(CommandLine.arguments.dropFirst()), context: context)
        EngineWarmUp.finish()
        exit(StandardOutput.finish(status: status, program: context.program))
    }

    /// Runs one command line (without the program name) and returns the exit status, once every phrase-cache
    /// entry it wrote is in the folder.
    public static func run(
        _ words: [String], context: CommandContext, commands: [any Command] = CommandRegistry.commands
    ) -> Int32 {
        defer { PhraseCache.finishWrites() }
        let program = context.program
        guard let first = words.first else {
            context.writeError(overview(program: program, commands: commands))
            return ExitCode.usage
        }
        switch first {
        case "--help", "-h":
            context.writeOutput(overview(program: program, commands: commands))
            return ExitCode.success
        case "--version":
            context.print("\(program) \(version)")
            return ExitCode.success
        case "help":
            guard let name = words.dropFirst().first else {
                context.writeOutput(overview(program: program, commands: commands))
                return ExitCode.success
            }
            guard let command = commands.first(where: { $0.signature.name == name }) else {
                return helpTopic(name, context: context, commands: commands)
            }
            context.writeOutput(command.signature.helpText(program: program))
            // `help voices` and `help bench` are commands and topics: the command's options, then the page.
            if let topic = HelpTopic.all.first(where: { $0.name == name }), let page = try? topic.text() {
                context.writeOutput("\n" + page)
            }
            return ExitCode.success
        default:
            break
        }
        if first.hasPrefix("-") {
            let known = ["--help", "--version"]
            let message =
                Suggestion.closest(to: first, among: known).map {
                    "unknown option '\(first)' (did you mean '\($0)'?)"
                } ?? "unknown option '\(first)'"
            return topLevelUsageError(UsageError(message), context: context)
        }
        guard let command = commands.first(where: { $0.signature.name == first }) else {
            return topLevelUsageError(unknownCommand(first, commands: commands), context: context)
        }
        return run(command, words: Array(words.dropFirst()), context: context)
    }

    /// Parses and runs one command, mapping its errors to statuses. A command that ends while an interrupt is
    /// being handled (it may fail because the clean-up removed files under it) leaves the exit to the handler,
    /// so the process ends with the signal's status and nothing else.
    static func run(_ command: any Command, words: [String], context: CommandContext) -> Int32 {
        let status = runReportingErrors(command, words: words, context: context)
        if context.catchesInterrupts { InterruptCleanup.yieldToARunningInterrupt() }
        return status
    }

    private static func runReportingErrors(_ command: any Command, words: [String], context: CommandContext) -> Int32 {
        let signature = command.signature
        do {
            let parsed = try ArgumentParser.parse(words, for: signature)
            if parsed.helpRequested {
                context.writeOutput(signature.helpText(program: context.program))
                return ExitCode.success
            }
            if !command.handlesInterrupts, context.catchesInterrupts { InterruptCleanup.install() }
            if !command.loadsPlainEspeak(parsed), let standIn = context.playbackStandIn {
                EspeakLibrary.useStandInForPlayback(at: standIn)
            }
            // Only in the real process: an in-process test's engine is the test runner's own. The warm-up opens the
            // library first thing; other commands that speak only open it ahead.
            if context.catchesInterrupts, command.startsEngineEarly(parsed, context: context) {
                EngineWarmUp.start(
                    voicesDirectory: VoiceLibrary.locateDirectory(
                        explicit: parsed.value(VoiceOptions.voices.long), environment: context.environment))
            } else if command.speaks(parsed, context: context) {
                EspeakLibrary.openInBackground()
            }
            return try command.run(parsed, context: context)
        } catch let error as UsageError {
            context.printError("\(context.program) \(signature.name): error: \(error.message)")
            context.printError("usage: \(signature.usageLine(program: context.program))")
            context.printError("See '\(context.program) \(signature.name) --help'.")
            return ExitCode.usage
        } catch let error as VoiceFileError {
            context.printError(error.description)  // already `path:line:col: error: …` with the line and a caret
            return ExitCode.scriptFailure
        } catch VoiceLibraryError.malformedFile(let error) {
            context.printError(error.description)  // a bad .voice file is a bad input file, like a script
            return ExitCode.scriptFailure
        } catch let failure as CommandFailure {
            context.printError(
                failure.isDiagnostics ? failure.message : "\(context.program): error: \(failure.message)")
            return failure.exitCode
        } catch {
            context.printError("\(context.program): error: \(describe(error))")
            return ExitCode.failure
        }
    }

    /// An error no command turned into a message of its own: a file error as `PATH: REASON` with the system's
    /// reason (`No space left on device`), never a Foundation error's dump; anything else as it describes itself.
    static func describe(_ error: any Error) -> String {
        let reason = SystemReason.of(error)
        let info = (error as NSError).userInfo
        guard let path = info[NSFilePathErrorKey] as? String ?? (info[NSURLErrorKey] as? URL)?.path else {
            return reason
        }
        return path + ": " + reason
    }

    /// The overview listing every command with its summary.
    public static func overview(program: String = "earshot", commands: [any Command] = CommandRegistry.commands)
        -> String
    {
        let rows =
            commands.map { ($0.signature.name, $0.signature.summary) }
            + [("help", "Show a command's help, or a topic: script, checks, voices, … ('help topics').")]
        let width = rows.map(\.0.count).max() ?? 0
        let listing = rows.map { name, summary in
            "  " + name + String(repeating: " ", count: width - name.count + 3) + summary + "\n"
        }.joined()
        return """
            OVERVIEW: \(summary)

            USAGE: \(program) <command> [<arguments>...]
                   \(program) --version

            COMMANDS:
            \(listing)
            OPTIONS:
              -h, --help   Show this help and exit.
              --version    Print the version and exit.

            See '\(program) help <command>' for a command's arguments and options.

            """
    }

    /// `help TOPIC`: a documentation page (`help topics` lists them), or a usage error naming commands and topics.
    private static func helpTopic(_ name: String, context: CommandContext, commands: [any Command]) -> Int32 {
        if name == "topics" {
            context.writeOutput(HelpTopic.listing())
            return ExitCode.success
        }
        guard let topic = HelpTopic.named(name) else {
            let names = commands.map(\.signature.name) + HelpTopic.all.map(\.name)
            let guess = Suggestion.closest(to: name, among: names).map { " (did you mean '\($0)'?)" } ?? ""
            return topLevelUsageError(
                UsageError("no command or help topic '\(name)'\(guess); see '\(context.program) help topics'"),
                context: context)
        }
        do {
            context.writeOutput(try topic.text())
            return ExitCode.success
        } catch let failure as CommandFailure {
            context.printError("\(context.program): error: \(failure.message)")
            return failure.exitCode
        } catch {
            context.printError("\(context.program): error: \(describe(error))")
            return ExitCode.failure
        }
    }

    private static func unknownCommand(_ name: String, commands: [any Command]) -> UsageError {
        let names = commands.map(\.signature.name) + ["help"]
        if let guess = Suggestion.closest(to: name, among: names) {
            return UsageError("unknown command '\(name)' (did you mean '\(guess)'?)")
        }
        return UsageError("unknown command '\(name)'; commands: \(names.joined(separator: ", "))")
    }

    private static func topLevelUsageError(_ error: UsageError, context: CommandContext) -> Int32 {
        context.printError("\(context.program): error: \(error.message)")
        context.printError("usage: \(context.program) <command> [<arguments>...]")
        context.printError("See '\(context.program) --help'.")
        return ExitCode.usage
    }
}

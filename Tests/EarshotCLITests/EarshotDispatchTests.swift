import Testing

@testable import EarshotCLI
@testable import EarshotReport

/// A command whose behaviour the dispatcher tests choose.
struct ScriptedCommand: Command {
    enum Outcome: Sendable {
        case status(Int32)
        case failure(CommandFailure)
        case usage(UsageError)
        case other
    }
    struct Plain: Error, CustomStringConvertible { var description: String { "something broke" } }

    let outcome: Outcome
    let signature = CommandSignature(
        name: "check", summary: "Check a script.",
        arguments: [ArgumentSpec("script", help: "The script.")],
        options: [.flag("strict", help: "Fail on warnings.")])

    func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        context.print("checking \(arguments.argument("script") ?? "?") strict=\(arguments.flag("strict"))")
        switch outcome {
        case .status(let code): return code
        case .failure(let failure): throw failure
        case .usage(let error): throw error
        case .other: throw Plain()
        }
    }
}

@Suite("Command dispatch")
struct EarshotDispatchTests {
    func run(_ words: [String], outcome: ScriptedCommand.Outcome = .status(0)) -> (Int32, CapturedContext) {
        let captured = CapturedContext()
        let status = Earshot.run(words, context: captured.context, commands: [ScriptedCommand(outcome: outcome)])
        return (status, captured)
    }

    @Test func aCommandRunsWithItsParsedArgumentsAndItsStatusIsReturned() {
        let (status, captured) = run(["check", "--strict", "a.earshot"], outcome: .status(ExitCode.scriptFailure))
        #expect(status == 2)
        #expect(captured.output == "checking a.earshot strict=true\n")
        #expect(captured.error.isEmpty)
    }

    @Test func aUsageErrorExits64WithTheMessageAndTheUsageLineOnStandardError() {
        let (status, captured) = run(["check", "--strcit", "a.earshot"])
        #expect(status == ExitCode.usage)
        #expect(captured.output.isEmpty)
        #expect(
            captured.error == """
                earshot check: error: unknown option '--strcit' (did you mean '--strict'?)
                usage: earshot check <script> [--strict]
                See 'earshot check --help'.

                """)
    }

    @Test func aUsageErrorThrownByTheCommandAlsoExits64() {
        let (status, captured) = run(["check", "x"], outcome: .usage(UsageError("no voice profile named 'y'")))
        #expect(status == 64)
        #expect(captured.error.contains("earshot check: error: no voice profile named 'y'\nusage: earshot check"))
    }

    @Test func runtimeFailuresPrintTheirMessageAndChooseTheirStatus() {
        let failure = CommandFailure("2 checks failed", exitCode: ExitCode.scriptFailure)
        let (status, captured) = run(["check", "x"], outcome: .failure(failure))
        #expect(status == 2)
        #expect(captured.error == "earshot: error: 2 checks failed\n")
        let (otherStatus, other) = run(["check", "x"], outcome: .other)
        #expect(otherStatus == 1)
        #expect(other.error == "earshot: error: something broke\n")
    }

    @Test(arguments: [["check", "--help"], ["help", "check"], ["check", "-h", "--bogus"]])
    func helpForACommandGoesToStandardOutputAndExits0(words: [String]) {
        let (status, captured) = run(words)
        #expect(status == 0)
        #expect(captured.output.hasPrefix("OVERVIEW: Check a script.\n"))
        #expect(captured.output.contains("USAGE: earshot check <script> [--strict]\n"))
    }

    @Test func theOverviewListsEveryRegisteredCommandWithItsSummary() {
        let captured = CapturedContext()
        #expect(Earshot.run(["--help"], context: captured.context) == 0)
        for command in CommandRegistry.commands {
            #expect(captured.output.contains("  \(command.signature.name)"))
            #expect(captured.output.contains(command.signature.summary))
        }
        #expect(CommandRegistry.command(named: "say")?.signature.name == "say")
        #expect(CommandRegistry.command(named: "nope") == nil)
    }

    @Test func noWordsPrintTheOverviewToStandardErrorAndExit64() {
        let (status, captured) = run([])
        #expect(status == 64)
        #expect(captured.output.isEmpty)
        #expect(captured.error.contains("USAGE: earshot <command>"))
    }

    @Test(arguments: [
        (["chekc"], "earshot: error: unknown command 'chekc' (did you mean 'check'?)"),
        (["zzz"], "earshot: error: unknown command 'zzz'; commands: check, help"),
        (["--verison"], "earshot: error: unknown option '--verison' (did you mean '--version'?)"),
        (["help", "zzz"], "earshot: error: no command or help topic 'zzz'; see 'earshot help topics'"),
    ])
    func unknownCommandsAndTopLevelOptionsAreUsageErrors(words: [String], message: String) {
        let (status, captured) = run(words)
        #expect(status == 64)
        #expect(captured.error.hasPrefix(message + "\nusage: earshot <command> [<arguments>...]\n"))
    }

    @Test func versionPrintsTheProgramNameAndVersion() {
        let (status, captured) = run(["--version"])
        #expect(status == 0)
        #expect(captured.output == "earshot 0.1.0\n")
    }
}

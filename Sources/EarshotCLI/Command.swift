/// One `earshot` subcommand: what it accepts and what it does.
///
/// To add a command, write a type conforming to `Command` in its own file and add an instance to
/// `CommandRegistry.commands`. The dispatcher parses the words after the subcommand with
/// `ArgumentParser` against `signature`, prints `--help` itself, and maps errors to exit statuses:
/// `UsageError` → 64 with the usage line, `CommandFailure` → its own status, anything else → 1.
///
/// ```swift
/// struct EchoCommand: Command {
///     let signature = CommandSignature(
///         name: "echo", summary: "Print the words back.",
///         arguments: [ArgumentSpec("words", arity: .zeroOrMore, help: "What to print.")])
///
///     func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
///         context.print(arguments.arguments("words").joined(separator: " "))
///         return ExitCode.success
///     }
/// }
/// ```
public protocol Command: Sendable {
    /// The command's name, arguments, options and help text.
    var signature: CommandSignature { get }

    /// Runs the command and returns the process exit status.
    ///
    /// - Throws: `UsageError` for a bad argument value, `CommandFailure` to pick a status, or any
    ///   error whose description is a sentence for the user.
    func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32

    /// True for a command that handles Ctrl-C and SIGTERM itself (`listen`); others get `InterruptCleanup`.
    var handlesInterrupts: Bool { get }

    /// True when the command, run with `arguments`, is going to speak: the dispatcher then starts opening the
    /// espeak-ng library on a background thread (`EspeakLibrary.openInBackground()`), so it loads while the
    /// command reads its scripts. A command that may be answered from the phrase cache says true only when the
    /// cache cannot answer (`CacheOptions.needsEspeak`); others never load the library unless they end up
    /// speaking.
    func speaks(_ arguments: ParsedArguments, context: CommandContext) -> Bool

    /// True when the command, run with `arguments`, must load espeak-ng exactly as any program does, with its
    /// real playback library (`bench --raw`, the benchmark's reference); others load the stand-in for it
    /// (`EspeakLibrary.useStandInForPlayback(at:)`) when the executable has one.
    func loadsPlainEspeak(_ arguments: ParsedArguments) -> Bool

    /// True when the command, run with `arguments`, will synthesize with the process's espeak-ng and its voices
    /// folder (`--voices`, else the one found the usual way): the dispatcher then starts espeak-ng on a background
    /// thread at once (`EngineWarmUp`), so its set-up overlaps the command's reading of its scripts.
    func startsEngineEarly(_ arguments: ParsedArguments, context: CommandContext) -> Bool
}

extension Command {
    /// Commands leave interrupts to `InterruptCleanup` unless they say otherwise.
    public var handlesInterrupts: Bool { false }

    /// Commands do not speak unless they say so.
    public func speaks(_ arguments: ParsedArguments, context: CommandContext) -> Bool { false }

    /// Commands load the playback stand-in unless they say otherwise.
    public func loadsPlainEspeak(_ arguments: ParsedArguments) -> Bool { false }

    /// Commands start espeak-ng when they first need it unless they say otherwise.
    public func startsEngineEarly(_ arguments: ParsedArguments, context: CommandContext) -> Bool { false }
}

/// The words of one command line sorted into options, flags and positional arguments.
///
/// Look options up by their long name without dashes (`value("voice")`) and arguments by name
/// (`arguments("text")`). Asking for a name the signature does not declare returns nothing.
public struct ParsedArguments: Hashable, Sendable {
    /// The command's name.
    public var command: String
    /// True when `-h`/`--help` was given: the dispatcher prints help instead of running the command.
    public var helpRequested: Bool
    /// Values per option long name, in command-line order.
    var optionValues: [String: [String]]
    /// Flags that were given.
    var flags: Set<String>
    /// Words per positional argument name.
    var argumentValues: [String: [String]]

    /// Creates parsed arguments directly (for tests and for commands that call one another).
    public init(
        command: String, options: [String: [String]] = [:], flags: Set<String> = [],
        arguments: [String: [String]] = [:], helpRequested: Bool = false
    ) {
        self.command = command
        self.optionValues = options
        self.flags = flags
        self.argumentValues = arguments
        self.helpRequested = helpRequested
    }

    /// The value of a single-valued option, nil when absent.
    public func value(_ option: String) -> String? { optionValues[option]?.last }

    /// Every value of a repeated option, in order; empty when absent.
    public func values(_ option: String) -> [String] { optionValues[option] ?? [] }

    /// Whether a flag was given.
    public func flag(_ option: String) -> Bool { flags.contains(option) }

    /// The word of a single positional argument, nil when absent.
    public func argument(_ name: String) -> String? { argumentValues[name]?.first }

    /// The words of a variadic positional argument; empty when absent.
    public func arguments(_ name: String) -> [String] { argumentValues[name] ?? [] }
}

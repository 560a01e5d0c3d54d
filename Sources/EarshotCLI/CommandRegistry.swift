/// Every `earshot` subcommand, in the order `earshot --help` lists them.
///
/// Adding a command is one line here plus the command's own file.
public enum CommandRegistry {
    /// The subcommands.
    public static let commands: [any Command] = [
        SayCommand(),
        VoicesCommand(),
        CheckCommand(),
        RenderCommand(),
        CompareCommand(),
        ListenCommand(),
        SamplesCommand(),
        VerifyCommand(),
        BenchCommand(),
        ConformanceCommand(),
        CacheCommand(),
    ]

    /// The command with `name`, if any.
    public static func command(named name: String) -> (any Command)? {
        commands.first { $0.signature.name == name }
    }
}

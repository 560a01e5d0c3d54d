import EarshotReport

extension TerminalStyle {
    /// The style for a command's standard output.
    public init(context: CommandContext) {
        self.init(isTerminal: context.outputIsTerminal, environment: context.environment)
    }
}

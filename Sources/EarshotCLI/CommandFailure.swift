/// A command failed at run time with a message for the user and an exit status.
///
/// Any other error thrown from `Command.run` is printed with its description and exits with
/// `ExitCode.failure` (1); throw this to choose the status (for example `ExitCode.scriptFailure`).
public struct CommandFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, possibly several lines; printed after `earshot: error: `.
    public var message: String
    /// The process exit status.
    public var exitCode: Int32
    /// True when the message is already compiler-style diagnostics (`path:line:col: error: …`, source line,
    /// caret), printed as they are so editors and CI problem matchers read them.
    public var isDiagnostics: Bool

    /// Creates a failure.
    public init(_ message: String, exitCode: Int32 = ExitCode.failure) {
        self.message = message
        self.exitCode = exitCode
        self.isDiagnostics = false
    }

    /// Script diagnostics: status 2, printed without a prefix.
    public static func diagnostics(_ text: String) -> CommandFailure {
        var failure = CommandFailure(text, exitCode: ExitCode.scriptFailure)
        failure.isDiagnostics = true
        return failure
    }

    public var description: String { message }
}

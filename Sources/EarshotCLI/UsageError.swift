/// The command line is wrong; the dispatcher prints the message, the command's usage line, and exits
/// with `ExitCode.usage` (64).
///
/// The message names the offending word: `unknown option '--vocie' (did you mean '--voice'?)`,
/// `missing value for '--voice'`, `unexpected argument 'x'`. Commands may throw it from `run` for a
/// bad option value too.
public struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, without a leading "error:".
    public var message: String

    /// Creates a usage error.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// The exit statuses every `earshot` command uses.
///
/// | code | meaning |
/// |---|---|
/// | 0 | success |
/// | 1 | a runtime failure: no audio device, unwritable output, espeak-ng error, unknown voice profile |
/// | 2 | the scenario script has errors, or its checks failed (commands that run scripts) |
/// | 64 | the command line itself is wrong (`EX_USAGE` from `sysexits.h`) |
public enum ExitCode {
    /// Everything worked.
    public static let success: Int32 = 0
    /// A runtime failure; the message says what and why.
    public static let failure: Int32 = 1
    /// A scenario script is invalid or its checks failed.
    public static let scriptFailure: Int32 = 2
    /// The command line is wrong: unknown option, missing value, unexpected argument (`EX_USAGE`).
    public static let usage: Int32 = 64
}

/// The exit statuses every `earshot` command uses.
///
/// | code | meaning |
/// |---|---|
/// | 0 | success |
/// | 1 | a check failed (`check`), a target was missed (`bench`), or a runtime failure: no audio device, |
/// |   | unwritable output, espeak-ng error |
/// | 2 | a scenario script has errors (nothing runs), or its `voice` line names a profile that cannot speak |
/// | 64 | the command line itself is wrong (`EX_USAGE` from `sysexits.h`): unknown option, a `--voice` or |
/// |    | `--profile` that does not exist, a path that does not exist, an output name that cannot be meant |
public enum ExitCode {
    /// Everything worked.
    public static let success: Int32 = 0
    /// A failed check, a missed benchmark target, or a runtime failure; the message says what and why.
    public static let failure: Int32 = 1
    /// A scenario script is invalid.
    public static let scriptFailure: Int32 = 2
    /// The command line is wrong: unknown option, missing value, unexpected argument (`EX_USAGE`).
    public static let usage: Int32 = 64
}

import Foundation

/// This process's environment variables, read once.
///
/// `ProcessInfo.processInfo.environment` builds a new dictionary from the C environment at every call: about
/// 0.06 ms each, and a render asked for it seven times (the command's context, the Voices folder, the engine
/// stamp, the espeak-ng data folder, the private folder). Earshot never changes its own environment, so one
/// reading serves them all; functions that take an environment still accept any other (tests pass their own).
public enum ProcessEnvironment {
    /// The variables as they were at the first use.
    public static let current: [String: String] = ProcessInfo.processInfo.environment
}

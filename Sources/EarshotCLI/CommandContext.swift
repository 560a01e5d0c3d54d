import EarshotSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command writes and what it may read from its surroundings.
///
/// `standard` writes to the process's stdout and stderr; tests build a context whose writers
/// collect the text instead, so commands run in-process without spawning.
public struct CommandContext: Sendable {
    /// Writes text to standard output (no newline added).
    public var writeOutput: @Sendable (String) -> Void
    /// Writes text to standard error (no newline added).
    public var writeError: @Sendable (String) -> Void
    /// The process environment (`EARSHOT_VOICES`, …).
    public var environment: [String: String]
    /// The program name used in messages and usage lines.
    public var program: String
    /// True for the real process (`standard`): commands may install signal handlers. In-process test contexts
    /// leave the test runner's signals alone.
    public var catchesInterrupts = false
    /// True when standard output is a terminal (colour and screen clearing are allowed then).
    public var outputIsTerminal = false
    /// The stand-in for espeak-ng's playback library installed with the executable, loaded in its place (see
    /// `EspeakLibrary`); nil in-process, where the test runner's espeak-ng stays as it is.
    public var playbackStandIn: String?

    /// Creates a context.
    public init(
        writeOutput: @escaping @Sendable (String) -> Void, writeError: @escaping @Sendable (String) -> Void,
        environment: [String: String] = [:], program: String = "earshot"
    ) {
        self.writeOutput = writeOutput
        self.writeError = writeError
        self.environment = environment
        self.program = program
    }

    /// The process's stdout, stderr and environment.
    public static func standard(environment: [String: String]) -> CommandContext {
        var context = CommandContext(
            writeOutput: { text in
                if let code = writeAll(text, to: STDOUT_FILENO) { StandardOutput.recordFailure(code) }
            },
            writeError: { _ = writeAll($0, to: STDERR_FILENO) },
            environment: environment)
        context.catchesInterrupts = true
        context.outputIsTerminal = isatty(STDOUT_FILENO) == 1
        context.playbackStandIn = EspeakLibrary.standInForPlayback(besideExecutable: ExecutablePath.current)
        return context
    }

    /// Writes every byte of `text` to a descriptor with `write(2)` (unbuffered, so stdout and stderr
    /// interleave in order). Returns the `errno` of a failed write (a full disk, `/dev/full`), nil when all was
    /// written.
    private static func writeAll(_ text: String, to descriptor: Int32) -> Int32? {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { buffer in
                #if canImport(Glibc)
                    Glibc.write(descriptor, buffer.baseAddress, buffer.count)
                #else
                    Darwin.write(descriptor, buffer.baseAddress, buffer.count)
                #endif
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return written < 0 ? errno : EIO }
            bytes = bytes.dropFirst(written)
        }
        return nil
    }

    /// Writes one line to standard output.
    public func print(_ line: String) { writeOutput(line + "\n") }

    /// Writes one line to standard error.
    public func printError(_ line: String) { writeError(line + "\n") }
}

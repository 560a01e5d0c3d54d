#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why writing an output file failed, naming the file the user asked for and the reason.
///
/// Every file Earshot writes (WAV, WebVTT, JSON Lines, review page, JUnit, SARIF, golden transcripts) goes
/// through the atomic writer (``AtomicFile``, ``StagedFile``), which throws this. The writer lives in
/// EarshotAudio, not in the report layer, because its lowest user is here: ``WAVWriter`` streams a WAV through
/// the same hidden-temporary machinery, and EarshotAudio cannot depend on the reports above it. Reading a WAV
/// fails with ``AudioFileError`` instead.
///
/// `description` is the sentence printed to the user, for example `cannot write /x/y.wav: No space left on device`.
public struct OutputFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was being done when the failure happened.
    public enum Operation: String, Hashable, Sendable {
        /// Creating the temporary file next to the destination (or refusing a destination that cannot be meant).
        case create
        /// Writing bytes (also flushing them to disk).
        case write
        /// Moving the finished temporary file onto the destination.
        case rename
    }

    /// What was being done.
    public var operation: Operation
    /// The file the user named (the destination, not the hidden temporary).
    public var path: String
    /// The reason: `strerror` text for operating-system failures, a sentence otherwise.
    public var reason: String
    /// The `errno` value for operating-system failures.
    public var errno: Int32?

    /// Creates an error.
    public init(_ operation: Operation, path: String, reason: String, errno: Int32? = nil) {
        self.operation = operation
        self.path = path
        self.reason = reason
        self.errno = errno
    }

    /// An operating-system failure, with `strerror(code)` as the reason.
    static func system(_ operation: Operation, path: String, code: Int32) -> OutputFileError {
        OutputFileError(operation, path: path, reason: String(cString: strerror(code)), errno: code)
    }

    public var description: String {
        switch operation {
        case .create: "cannot create \(path): \(reason)"
        case .write: "cannot write \(path): \(reason)"
        case .rename: "cannot move the finished file into place at \(path): \(reason)"
        }
    }
}

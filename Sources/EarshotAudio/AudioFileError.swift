#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why reading a WAV file failed, naming the file and the reason. (Writing fails with ``OutputFileError``.)
///
/// `description` is the sentence printed to the user, for example `cannot read /x/y.wav: No such file or
/// directory` or `x.wav: 24-bit PCM is not supported; convert to 16-bit PCM WAV (e.g. sox in.wav -b 16 out.wav)`.
public struct AudioFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was being done when the failure happened.
    public enum Operation: String, Hashable, Sendable {
        /// Opening or reading an existing file.
        case read
        /// The file was read but its contents are not a supported WAV file.
        case format
    }

    /// What was being done.
    public var operation: Operation
    /// The file read.
    public var path: String
    /// The reason: `strerror` text for operating-system failures, a sentence for format problems.
    public var reason: String
    /// The `errno` value for operating-system failures, nil for format problems.
    public var errno: Int32?

    /// Creates an error.
    public init(_ operation: Operation, path: String, reason: String, errno: Int32? = nil) {
        self.operation = operation
        self.path = path
        self.reason = reason
        self.errno = errno
    }

    /// An operating-system failure, with `strerror(code)` as the reason.
    static func system(_ operation: Operation, path: String, code: Int32) -> AudioFileError {
        AudioFileError(operation, path: path, reason: String(cString: strerror(code)), errno: code)
    }

    /// A contents problem: `path: reason`.
    static func format(_ path: String, _ reason: String) -> AudioFileError {
        AudioFileError(.format, path: path, reason: reason)
    }

    public var description: String {
        switch operation {
        case .read: "cannot read \(path): \(reason)"
        case .format: "\(path): \(reason)"
        }
    }
}

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether everything the process wrote to standard output arrived: a full disk or `> /dev/full` must not
/// pass as success.
///
/// The standard context records the first failed write here; ``finish(status:)`` runs at exit, closes
/// standard output (the last chance for a deferred write error to show) and turns a failure into status 1 with
/// `earshot: error: cannot write standard output: REASON` on standard error.
enum StandardOutput {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var failure: Int32?

    /// Records a failed write's `errno` (the first one counts).
    static func recordFailure(_ code: Int32) {
        lock.withLock { if failure == nil { failure = code } }
    }

    /// The `errno` of the first failed write, if any.
    static var firstFailure: Int32? { lock.withLock { failure } }

    /// The exit status after checking standard output: `status`, or 1 with a message when output was lost.
    static func finish(status: Int32, program: String) -> Int32 {
        if close(STDOUT_FILENO) != 0, errno != EBADF { recordFailure(errno) }
        guard let code = firstFailure else { return status }
        let message = "\(program): error: cannot write standard output: \(String(cString: strerror(code)))\n"
        _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        return status == ExitCode.success ? ExitCode.failure : status
    }
}

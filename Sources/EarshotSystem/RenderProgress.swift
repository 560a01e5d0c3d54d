import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A progress line on standard error for renders that take more than a second, only when it is a terminal.
///
/// `rendering out.wav: 42% (12.3s of 29.0s)`, redrawn with a carriage return at most ten times a second and
/// erased when done. Quiet when stderr is a pipe or file (CI logs, tests), when `EARSHOT_NO_PROGRESS` is set, and
/// for renders under a second.
public final class RenderProgress {
    private let title: String
    private let rate: Int
    private let writeError: (String) -> Void
    private let enabled: Bool
    private let started = Date()
    private var lastDrawn: Date?
    private var drawn = false

    /// A progress line for `title` at `rate` frames per second, written with `writeError` (standard error).
    public init(title: String, rate: Int, environment: [String: String], writeError: @escaping (String) -> Void) {
        self.title = title
        self.rate = rate
        self.writeError = writeError
        enabled = isatty(STDERR_FILENO) == 1 && environment["EARSHOT_NO_PROGRESS"] == nil
    }

    /// Called after each mixed block.
    public func update(done: Int, total: Int) {
        guard enabled, total > 0 else { return }
        let now = Date()
        guard now.timeIntervalSince(started) >= 1 else { return }
        if let lastDrawn, now.timeIntervalSince(lastDrawn) < 0.1, done < total { return }
        lastDrawn = now
        drawn = true
        let percent = done * 100 / total
        let line = String(
            format: "rendering %@: %d%% (%.1fs of %.1fs)", title, percent,
            Double(done) / Double(rate), Double(total) / Double(rate))
        writeError("\r\u{1B}[2K" + line)
    }

    /// Erases the line, if one was drawn.
    public func finish() {
        guard drawn else { return }
        drawn = false
        writeError("\r\u{1B}[2K")
    }
}

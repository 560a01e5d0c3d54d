import Foundation

/// Every hidden temporary file this process has open and not yet committed, so an interrupted command
/// (Ctrl-C, SIGTERM) can remove them before it exits: a half-written render leaves nothing behind.
public enum PendingTemporaries {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var paths: Set<String> = []
    /// Set by ``removeAll()``: the process is exiting, so a temporary made after it is unlinked at once.
    nonisolated(unsafe) private static var closed = false

    /// Registers a new temporary; once ``removeAll()`` has run (the process is on its way out while
    /// other threads still work) it is unlinked at once instead, so none is created after the clean-up.
    static func add(_ path: String) {
        let late = lock.withLock { () -> Bool in
            if closed { return true }
            paths.insert(path)
            return false
        }
        if late { unlink(path) }
    }

    static func remove(_ path: String) { lock.withLock { _ = paths.remove(path) } }

    /// Unlinks every pending temporary and every later one; returns how many there were. Called from an
    /// interrupt handler's queue just before the process exits (the render thread keeps running until then:
    /// `make sanitize` caught it creating the WAV and JSON Lines temporaries after the clean-up).
    @discardableResult
    public static func removeAll() -> Int {
        lock.withLock {
            closed = true
            for path in paths { unlink(path) }
            defer { paths.removeAll() }
            return paths.count
        }
    }
}

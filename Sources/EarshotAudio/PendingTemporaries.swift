import Foundation

/// Every hidden temporary file this process has open and not yet committed, so an interrupted command
/// (Ctrl-C, SIGTERM) can remove them before it exits: a half-written render leaves nothing behind.
///
/// Files that must appear together are renamed into place inside ``publishing(_:)``; an interrupt waits for
/// that to end (``removeAllAndExit(status:)``), so it lands before the first rename or after the last.
public enum PendingTemporaries {
    private static let lock = NSLock()
    /// Held while a set of files is renamed into place, and by an interrupt until the process is gone.
    private static let publishLock = NSLock()
    nonisolated(unsafe) private static var paths: Set<String> = []
    /// Set by ``removeAll()``: the process is exiting, so a temporary made after it is unlinked at once.
    nonisolated(unsafe) private static var closed = false

    /// Creates a temporary with `make` (which returns its path, or nil on failure) and records it in one step, so
    /// an interrupt cannot land between the file's creation and its record. Once ``removeAll()`` has run (the
    /// process is on its way out while other threads still work) the new file is unlinked at once instead, so
    /// none is left after the clean-up (`make sanitize` caught a render thread creating one late).
    static func create(_ make: () -> String?) -> String? {
        let (path, late) = lock.withLock { () -> (String?, Bool) in
            guard let path = make() else { return (nil, false) }
            if closed { return (path, true) }
            paths.insert(path)
            return (path, false)
        }
        if late, let path { unlink(path) }
        return path
    }

    static func remove(_ path: String) { lock.withLock { _ = paths.remove(path) } }

    /// True once ``removeAll()`` has run: an interrupt is ending the process.
    public static var isClosed: Bool { lock.withLock { closed } }

    /// Runs `body` (renames that must all happen or none) with interrupts held off until it returns.
    public static func publishing<T>(_ body: () throws -> T) rethrows -> T {
        publishLock.lock()
        defer { publishLock.unlock() }
        return try body()
    }

    /// Unlinks every pending temporary and every later one; returns how many there were.
    @discardableResult
    public static func removeAll() -> Int {
        lock.withLock {
            closed = true
            for path in paths { unlink(path) }
            defer { paths.removeAll() }
            return paths.count
        }
    }

    /// For an interrupt handler: waits for a running ``publishing(_:)`` to end, removes every pending
    /// temporary, runs `cleanUp` and ends the process with `status`, never letting another publish start.
    ///
    /// `_exit`, not `exit`: atexit work (espeak-ng's own teardown) could deadlock mid-synthesis.
    public static func removeAllAndExit(status: Int32, alsoRemoving cleanUp: () -> Void = {}) -> Never {
        publishLock.lock()
        // Held until the process is gone: a temporary is made and recorded under this lock, so none can be
        // half-made (created, not yet unlinked as late) when `_exit` ends the process during `cleanUp`.
        lock.lock()
        closed = true
        for path in paths { unlink(path) }
        paths.removeAll()
        cleanUp()
        _exit(status)
    }
}

import Foundation

/// Every hidden temporary file this process has open and not yet committed, so an interrupted command
/// (Ctrl-C, SIGTERM) can remove them before it exits: a half-written render leaves nothing behind.
public enum PendingTemporaries {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var paths: Set<String> = []

    static func add(_ path: String) { lock.withLock { _ = paths.insert(path) } }

    static func remove(_ path: String) { lock.withLock { _ = paths.remove(path) } }

    /// Unlinks every pending temporary; returns how many there were. Called from an interrupt handler's queue.
    @discardableResult
    public static func removeAll() -> Int {
        lock.withLock {
            for path in paths { unlink(path) }
            defer { paths.removeAll() }
            return paths.count
        }
    }
}

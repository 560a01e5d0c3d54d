import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The benchmark's child processes that are running, so that an interrupt can end them before it removes the
/// scratch folder they write in.
///
/// A child is recorded in the same step as it is started, and forgotten once it has been waited for. After
/// ``stopAll()`` no child starts: the thread that would start one, or that has just waited for one, waits for the
/// interrupt to end the process instead of carrying on (and perhaps reporting the stopped child as a failure).
public enum BenchChildren {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var running: Set<pid_t> = []
    nonisolated(unsafe) private static var stopped = false

    /// How long ``stopAll()`` lets a child clean up after SIGTERM before it sends SIGKILL.
    static let graceSeconds = 5.0

    /// Starts a child with `spawn` (which returns its process id) and records it, unless ``stopAll()`` has run.
    static func start(_ spawn: () throws -> pid_t) rethrows -> pid_t {
        let pid = try lock.withLock { () throws -> pid_t? in
            guard !stopped else { return nil }
            let pid = try spawn()
            running.insert(pid)
            return pid
        }
        guard let pid else { parkUntilTheProcessEnds() }
        return pid
    }

    /// Forgets a child that has been waited for; after ``stopAll()``, waits for the process to end.
    static func ended(_ pid: pid_t) {
        let stopping = lock.withLock {
            running.remove(pid)
            return stopped
        }
        if stopping { parkUntilTheProcessEnds() }
    }

    /// Stops every running child, for a process that is about to end: no child starts from now on, each running
    /// one gets SIGTERM (an `earshot` child removes its temporaries and exits), and after ``graceSeconds`` those
    /// still running get SIGKILL. Returns once every one has exited; they are left for their waiting thread to
    /// collect.
    public static func stopAll() {
        let children = lock.withLock {
            stopped = true
            return running
        }
        for pid in children { kill(pid, SIGTERM) }
        let deadline = ContinuousClock.now + .seconds(graceSeconds)
        var left = children.filter { !hasExited($0, waiting: false) }
        while !left.isEmpty, ContinuousClock.now < deadline {
            usleep(10_000)
            left = left.filter { !hasExited($0, waiting: false) }
        }
        for pid in left {
            kill(pid, SIGKILL)
            _ = hasExited(pid, waiting: true)
        }
    }

    /// Whether child `pid` has exited (or was already collected), without collecting it; `waiting` blocks until
    /// it has.
    private static func hasExited(_ pid: pid_t, waiting: Bool) -> Bool {
        var info = siginfo_t()
        let options = WEXITED | WNOWAIT | (waiting ? 0 : WNOHANG)
        while waitid(P_PID, id_t(pid), &info, options) < 0 {
            guard errno == EINTR else { return true }  // ECHILD: its waiting thread has collected it
        }
        // With WNOHANG and the child still running, waitid leaves the process id in `info` at 0.
        return info._sifields._sigchld.si_pid == pid
    }

    /// The thread waits here for the interrupt that stopped the children to end the process.
    private static func parkUntilTheProcessEnds() -> Never {
        while true { sleep(1) }
    }
}

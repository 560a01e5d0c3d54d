import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What one child process cost: wall time, CPU time (user + system) and peak resident memory, as the kernel
/// reports them for that child alone (`wait4`'s `rusage`).
public struct ChildUsage: Sendable, Equatable {
    /// Seconds from spawn to exit.
    public var wall: Double
    /// User plus system CPU seconds.
    public var cpu: Double
    /// Peak resident set size in kilobytes (`ru_maxrss`).
    public var peakKilobytes: Int
    /// The exit status (128 + signal when killed by one).
    public var status: Int32

    /// Creates a measurement.
    public init(wall: Double, cpu: Double, peakKilobytes: Int, status: Int32) {
        self.wall = wall
        self.cpu = cpu
        self.peakKilobytes = peakKilobytes
        self.status = status
    }

    /// Runs `executable` with `arguments`, stdout to /dev/null and stderr to `errorPath`, and waits for it;
    /// `environment` replaces or adds variables of this process's environment for the child.
    public static func measure(
        _ executable: String, _ arguments: [String], errorPath: String, environment: [String: String] = [:]
    ) throws -> ChildUsage {
        try measureSideBySide([(arguments, errorPath)], executable: executable, environment: environment).each[0]
    }

    /// Starts `executable` once for each of `runs` (its arguments and its stderr file), all at once, and waits for
    /// every one: the wall time from the first start to the last exit, and each child's usage (whose `wall` is
    /// the time until it was seen to exit; a child that ended while an earlier one was waited for is seen when
    /// that one ends). A child that cannot be started stops the ones already running. Every child is recorded in
    /// ``BenchChildren`` while it runs, so that an interrupt can stop it.
    public static func measureSideBySide(
        _ runs: [(arguments: [String], errorPath: String)], executable: String, environment: [String: String] = [:]
    ) throws -> (wall: Double, each: [ChildUsage]) {
        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { _, given in given }
        let envp: [UnsafeMutablePointer<CChar>?] =
            variables.sorted { $0.key < $1.key }.map { strdup("\($0)=\($1)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        let clock = ContinuousClock()
        let started = clock.now
        var pids: [pid_t] = []
        for run in runs {
            do {
                pids.append(
                    try BenchChildren.start {
                        try spawn(executable, run.arguments, errorPath: run.errorPath, envp: envp)
                    })
            } catch {
                for pid in pids {
                    kill(pid, SIGKILL)
                    _ = try? reap(pid, executable)
                    BenchChildren.ended(pid)
                }
                throw error
            }
        }
        func elapsed() -> Double {
            let duration = clock.now - started
            return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        // Every child is waited for, even after one could not be: none is left behind.
        let each = pids.map { pid in
            Result { () throws -> ChildUsage in
                defer { BenchChildren.ended(pid) }
                let (status, usage) = try reap(pid, executable)
                let signal = status & 0x7f
                return ChildUsage(
                    wall: elapsed(), cpu: seconds(usage.ru_utime) + seconds(usage.ru_stime),
                    peakKilobytes: Int(usage.ru_maxrss), status: signal == 0 ? (status >> 8) & 0xff : 128 + signal)
            }
        }
        return (elapsed(), try each.map { try $0.get() })
    }

    /// Starts `executable` with stdin and stdout on /dev/null and stderr to `errorPath`.
    private static func spawn(
        _ executable: String, _ arguments: [String], errorPath: String, envp: [UnsafeMutablePointer<CChar>?]
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw BenchError("\(executable): cannot start it: \(String(cString: strerror(spawned)))")
        }
        return pid
    }

    /// Waits for child `pid` to exit: its raw status and its `rusage`.
    private static func reap(_ pid: pid_t, _ executable: String) throws -> (Int32, rusage) {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else {
                throw BenchError("\(executable): cannot wait for it: \(String(cString: strerror(errno)))")
            }
        }
        return (status, usage)
    }
}

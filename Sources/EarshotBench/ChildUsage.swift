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
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { _, given in given }
        let envp: [UnsafeMutablePointer<CChar>?] =
            variables.sorted { $0.key < $1.key }.map { strdup("\($0)=\($1)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        let clock = ContinuousClock()
        let started = clock.now
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw BenchError("\(executable): cannot start it: \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else {
                throw BenchError("\(executable): cannot wait for it: \(String(cString: strerror(errno)))")
            }
        }
        let wall = clock.now - started
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        let signal = status & 0x7f
        return ChildUsage(
            wall: Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18,
            cpu: seconds(usage.ru_utime) + seconds(usage.ru_stime), peakKilobytes: Int(usage.ru_maxrss),
            status: signal == 0 ? (status >> 8) & 0xff : 128 + signal)
    }
}

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A private speech-dispatcher with the espeak-ng module, playing into its own paced PulseAudio null sink.
///
/// Everything lives in one folder made for it (mode 0700): PulseAudio's runtime folder and socket, the server's
/// `speechd.conf` and module configuration, its Unix socket, PID file and logs. Both daemons are started and
/// stopped by their PIDs; nothing outside the folder is read for settings (HOME and XDG_RUNTIME_DIR point into it),
/// so it never meets the user's own speech-dispatcher.
public final class SpeechDispatcherServer: @unchecked Sendable {
    /// The folder holding everything.
    public let directory: String
    /// The server's SSIP socket.
    public var socketPath: String { directory + "/run/speechd.sock" }
    /// The PulseAudio server address the espeak-ng module plays to.
    public var pulseServer: String { "unix:" + directory + "/pulse/native" }
    /// The speech-dispatcher process's PID.
    public private(set) var serverPID: Int32?
    /// The PulseAudio daemon's PID.
    public private(set) var pulsePID: Int32?
    private var server: Process?

    /// The Debian packages this needs.
    public static let packages = "speech-dispatcher speech-dispatcher-espeak-ng pulseaudio"

    /// Starts PulseAudio, then speech-dispatcher, and waits until the SSIP socket accepts connections.
    ///
    /// - Throws: `SSIPError` naming the missing program or the folder whose log says why a daemon did not start.
    public init(directory: String? = nil) throws {
        self.directory =
            directory ?? (NSTemporaryDirectory() + "earshot-speechd-" + String(UUID().uuidString.prefix(8)))
        for program in ["speech-dispatcher", "pulseaudio"] where Self.which(program) == nil {
            throw SSIPError("\(program) is not installed (apt-get install \(Self.packages), or make deps)")
        }
        do {
            try makeFolders()
            try startPulseAudio()
            try startServer()
        } catch {
            // The folder goes with the daemons: keep the end of their logs in the message.
            let logs = ["speech-dispatcher.log", "espeak-ng.log", "pulse.log"].compactMap { name -> String? in
                guard let text = try? String(contentsOfFile: "\(self.directory)/log/\(name)", encoding: .utf8),
                    !text.isEmpty
                else { return nil }
                return "\(name): " + text.split(separator: "\n").suffix(3).joined(separator: " | ")
            }
            stop()
            guard !logs.isEmpty else { throw error }
            throw SSIPError("\(error)\n" + logs.joined(separator: "\n"))
        }
    }

    deinit { stop() }

    /// Stops speech-dispatcher (and its module processes) and PulseAudio by PID, and removes the folder.
    public func stop() {
        if let pid = serverPID {
            let modules = Self.children(of: pid)
            Self.terminate(pid)
            for module in modules { Self.terminate(module) }
            server?.waitUntilExit()
        }
        serverPID = nil
        server = nil
        if let pid = pulsePID { Self.terminate(pid) }
        pulsePID = nil
        try? FileManager.default.removeItem(atPath: directory)
    }

    // MARK: Starting

    private func makeFolders() throws {
        let manager = FileManager.default
        for folder in ["", "/pulse", "/run", "/log", "/conf/modules", "/pulse-state", "/pulse-config"] {
            try manager.createDirectory(
                atPath: directory + folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let configuration = """
            CommunicationMethod "unix_socket"
            SocketPath "\(socketPath)"
            Timeout 0
            LogLevel 3
            LogDir "\(directory)/log"
            DefaultModule espeak-ng
            AddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"
            AudioOutputMethod "pulse"
            AudioPulseServer "\(pulseServer)"
            DefaultRate 0
            DefaultLanguage "en"
            DefaultPriority "text"

            """
        try configuration.write(toFile: directory + "/conf/speechd.conf", atomically: true, encoding: .utf8)
        let module =
            (try? String(contentsOfFile: "/etc/speech-dispatcher/modules/espeak-ng.conf", encoding: .utf8)) ?? ""
        try module.write(toFile: directory + "/conf/modules/espeak-ng.conf", atomically: true, encoding: .utf8)
    }

    private var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = directory
        environment["XDG_RUNTIME_DIR"] = directory
        environment["XDG_CONFIG_HOME"] = directory + "/conf"
        environment["PULSE_SERVER"] = pulseServer
        environment["PULSE_CONFIG_PATH"] = directory + "/pulse-config"
        environment["PULSE_STATE_PATH"] = directory + "/pulse-state"
        return environment
    }

    /// A null sink at 22050 Hz mono, paced in real time; `norewinds=1` keeps new streams from stalling.
    private func startPulseAudio() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.which("pulseaudio") ?? "/usr/bin/pulseaudio")
        process.arguments = [
            "--daemonize=yes", "-n", "--exit-idle-time=-1", "--disallow-exit", "--use-pid-file=yes",
            "--log-target=file:\(directory)/log/pulse.log",
            "--load=module-null-sink sink_name=paced norewinds=1 format=s16le rate=22050 channels=1",
            "--load=module-native-protocol-unix auth-anonymous=1 socket=\(directory)/pulse/native",
            "--load=module-always-sink",
        ]
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let pidPath = directory + "/pulse/pid"
        guard
            Self.poll(timeout: 5, { Self.canConnect(self.directory + "/pulse/native") }),
            let text = try? String(contentsOfFile: pidPath, encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            throw SSIPError("PulseAudio did not start in \(directory)")
        }
        pulsePID = pid
    }

    private func startServer() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.which("speech-dispatcher") ?? "/usr/bin/speech-dispatcher")
        process.arguments = [
            "--run-single", "--timeout", "0", "--config-dir", directory + "/conf", "--pid-file",
            directory + "/run/speechd.pid", "--log-dir", directory + "/log",
        ]
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        server = process
        serverPID = process.processIdentifier
        guard Self.poll(timeout: 10, { Self.canConnect(self.socketPath) || !process.isRunning }), process.isRunning
        else {
            throw SSIPError("speech-dispatcher did not start in \(directory)")
        }
    }

    // MARK: Helpers

    static func which(_ program: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") + ["/usr/sbin", "/usr/bin"] {
            let candidate = "\(folder)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Polls `condition` every 20 ms for up to `timeout` seconds.
    static func poll(timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// True when something accepts connections on the Unix socket `path`.
    static func canConnect(_ path: String) -> Bool {
        guard FileManager.default.fileExists(atPath: path), let client = try? UnixSocket(path: path) else {
            return false
        }
        client.close()
        return true
    }

    /// The PIDs whose parent is `pid` (speech-dispatcher's output modules), from `/proc`.
    static func children(of pid: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { child in
            guard let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == pid
        }
    }

    /// SIGTERM, up to 2 s to exit, then SIGKILL (a module blocked on audio ignores SIGTERM).
    static func terminate(_ pid: Int32) {
        guard kill(pid, SIGTERM) == 0 else { return }
        if poll(timeout: 2, { kill(pid, 0) != 0 || isZombie(pid) }) { return }
        kill(pid, SIGKILL)
    }

    static func isZombie(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return true }
        return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
    }
}

import EarshotTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A private paced PulseAudio sink for `earshot listen` subprocesses (`tools/paced-audio.sh`), stopped by PID.
final class ListenPacedSink {
    let directory = NSTemporaryDirectory() + "earshot-listen-" + UUID().uuidString.prefix(8)
    let server: String
    let pid: Int32
    private let daemon: PacedAudio

    init() throws {
        daemon = try PacedAudio(directory: directory)
        server = daemon.server
        pid = daemon.pid
    }

    func stop() {
        daemon.stop()
    }

    /// Runs the built `earshot` with its PulseAudio clients pointed at `server`.
    static func run(_ arguments: [String], server: String) throws -> RunResult {
        guard let path = EarshotBinary.path else { throw CocoaError(.fileNoSuchFile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["EARSHOT_VOICES"] = voicesFolder
        environment["PULSE_SERVER"] = server
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let errors = ErrorCollector(err.fileHandleForReading)
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return RunResult(
            status: process.terminationStatus, output: String(decoding: output, as: UTF8.self), error: errors.text())
    }
}

/// Reads a pipe to its end on another thread.
final class ErrorCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            let all = handle.readDataToEndOfFile()
            lock.withLock { data = all }
            done.signal()
        }
    }

    func text() -> String {
        done.wait()
        return lock.withLock { String(decoding: data, as: UTF8.self) }
    }
}

/// A pseudo-terminal: the child gets the slave side as its stdin/stdout/stderr, the test types into the master
/// side and reads everything the child prints.
final class PseudoTerminal: @unchecked Sendable {
    private let master: Int32
    private let slave: Int32
    private let lock = NSLock()
    private var collected = [UInt8]()
    private var reading = true

    init() throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw CocoaError(.fileNoSuchFile) }
        self.master = master
        self.slave = slave
        Thread.detachNewThread { [self] in readLoop() }
    }

    deinit {
        lock.withLock { reading = false }
        close(slave)
    }

    /// The slave's `c_lflag` (ICANON, ECHO, ISIG, …): what raw mode changes.
    var localFlags: tcflag_t {
        var settings = termios()
        tcgetattr(slave, &settings)
        return settings.c_lflag
    }

    /// Everything the child printed so far.
    var output: String { lock.withLock { String(decoding: collected, as: UTF8.self) } }

    func spawn(_ path: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["EARSHOT_VOICES"] = voicesFolder
        process.environment = environment
        let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        return process
    }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Waits until the output after the last `marker` (all of it when nil) contains `text`. The ceiling is only a
    /// guard against a hung child: on a loaded machine a minute of waiting costs nothing when things work.
    func waitFor(_ text: String, after marker: String? = nil, seconds: Double = 60) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let all = output
            let tail = marker.flatMap { all.range(of: $0, options: .backwards) }.map { String(all[$0.upperBound...]) }
            if (marker == nil ? all : tail ?? "").contains(text) { return true }
            usleep(10_000)
        }
        return false
    }

    /// Waits for the child to exit, then for everything it printed to be read from the master side (nothing
    /// left pending on it), with a generous ceiling.
    func waitForExit(_ process: Process, seconds: Double = 60) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { return false }
        while Date() < deadline {
            var pending: Int32 = 0
            if ioctl(master, UInt(FIONREAD), &pending) != 0 || pending == 0 {
                // The reader thread appends under the lock after each read: taking it once more means it is done.
                lock.withLock {}
                if ioctl(master, UInt(FIONREAD), &pending) != 0 || pending == 0 { return true }
            }
            usleep(10_000)
        }
        return true
    }

    private func readLoop() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while lock.withLock({ reading }) {
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            lock.withLock { collected += buffer[0..<count] }
        }
    }
}

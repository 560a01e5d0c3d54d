import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A private PulseAudio daemon with a real-time paced null sink (`tools/paced-audio.sh`), for tests that need
/// audio played at the speed of a real device: started in a folder of its own, stopped by its process id.
public struct PacedAudio: Sendable {
    /// The script that starts and stops the daemon.
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("tools/paced-audio.sh").path

    /// The daemon's folder.
    public let directory: String
    /// Where PulseAudio clients reach it (`PULSE_SERVER`).
    public let server: String
    /// The daemon's process id.
    public let pid: Int32

    /// Starts a daemon in `directory`.
    ///
    /// - Throws: `CocoaError(.executableLoad)` when the script fails or does not say where the daemon is.
    public init(directory: String) throws {
        let output = try Self.run(["start", directory])
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2, values[parts[0]] == nil { values[parts[0]] = parts[1] }
        }
        guard let pid = values["PID"].flatMap({ Int32($0) }), let server = values["PULSE_SERVER"] else {
            throw CocoaError(.executableLoad)
        }
        self.directory = directory
        self.server = server
        self.pid = pid
    }

    /// Stops the daemon, killing it when the script cannot.
    public func stop() {
        if (try? Self.run(["stop", directory])) == nil { kill(pid, SIGKILL) }
    }

    /// Runs the script and returns its standard output; throws when it fails.
    private static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
        return String(decoding: data, as: UTF8.self)
    }
}

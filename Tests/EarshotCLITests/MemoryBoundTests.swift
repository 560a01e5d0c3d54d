import EarshotBench
import Foundation
import Testing

/// Memory that must not grow with a scenario's length, measured in a process of its own: a test process's own
/// size moves with whatever other tests run beside it.
@Suite struct MemoryBoundTests {
    /// A focused stopwatch checked for an hour: 3,600 value changes and polls stay within a few tens of MB (the
    /// benchmark measures 36 MB for the release build; the debug build here takes about 40 MB).
    @Test func anHourOfAFocusedStopwatchChecksInBoundedMemory() throws {
        let executable = try #require(EarshotBinary.path, "the earshot executable is built next to the tests")
        let folder = try OutputFolder()
        defer { folder.remove() }
        let script = folder.path + "/stopwatch-3600.earshot"
        try ScalingWorkload.stopwatch(seconds: 3_600).write(toFile: script, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["check", "--no-cache", "--quiet", script]
        process.environment = ProcessInfo.processInfo.environment.merging(["EARSHOT_VOICES": voicesFolder]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The kernel's count for a child (`wait4`) starts from this process's size when it was spawned, so the
        // child's own high-water mark is read while it runs; it only ever rises.
        var peak = 0
        while process.isRunning {
            peak = max(peak, Self.highWaterKilobytes(of: process.processIdentifier) ?? 0)
            usleep(5_000)
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(peak > 0 && peak < Self.limitKilobytes, "peak \(peak) KB")
    }

    static let limitKilobytes = 150 << 10

    /// `VmHWM` of a running process, in KB (nil once it has gone).
    static func highWaterKilobytes(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        return line?.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
    }
}

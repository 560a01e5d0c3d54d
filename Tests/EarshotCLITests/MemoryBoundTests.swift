import EarshotBench
import Foundation
import Testing

/// Memory that must not grow with a scenario's length, measured by the kernel in a process of its own: a test
/// process's own size moves with whatever other tests run beside it.
@Suite struct MemoryBoundTests {
    /// A focused stopwatch checked for an hour: 3,600 value changes and polls stay within a few tens of MB (the
    /// benchmark measures 36 MB for the release build; the debug build here needs more).
    @Test func anHourOfAFocusedStopwatchChecksInBoundedMemory() throws {
        let executable = try #require(EarshotBinary.path, "the earshot executable is built next to the tests")
        let folder = try OutputFolder()
        defer { folder.remove() }
        let script = folder.path + "/stopwatch-3600.earshot"
        try ScalingWorkload.stopwatch(seconds: 3_600).write(toFile: script, atomically: true, encoding: .utf8)
        let usage = try ChildUsage.measure(
            executable, ["check", "--no-cache", "--quiet", script], errorPath: folder.path + "/stderr",
            environment: ["EARSHOT_VOICES": voicesFolder])
        let errors = (try? String(contentsOfFile: folder.path + "/stderr", encoding: .utf8)) ?? ""
        #expect(usage.status == 0, "\(errors)")
        #expect(usage.peakKilobytes > 0 && usage.peakKilobytes < Self.limitKilobytes, "peak \(usage.peakKilobytes) KB")
    }

    static let limitKilobytes = 150 << 10
}

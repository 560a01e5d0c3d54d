import EarshotBench
import Foundation
import Testing

/// Medians, the exponent fit, and measuring a child process.
@Suite("bench measurements")
struct BenchMeasureTests {
    @Test(arguments: [0.5, 1.0, 2.0, 3.0])
    func theFitRecoversTheExponentOfExactPowers(power: Double) throws {
        let points = [10, 20, 40, 80].map { size in (size: size, cost: 0.2 + 0.001 * pow(Double(size), power)) }
        let exponent = try #require(ScalingFit.exponent(points, baseline: 0.2, floor: 1e-9))
        #expect(abs(exponent - power) < 1e-6)
    }

    @Test func theFitNeedsTwoDistinctSizes() {
        #expect(ScalingFit.exponent([(size: 10, cost: 1)]) == nil)
        #expect(ScalingFit.exponent([(size: 10, cost: 1), (size: 10, cost: 2)]) == nil)
    }

    @Test func mediansTakeTheMiddleOfEachMeasureOnItsOwn() {
        #expect(BenchRunner.median([3, 1, 2]) == 2)
        #expect(BenchRunner.median([4, 1, 3, 2]) == 2.5)
        #expect(BenchRunner.median([]) == 0)
        let usages = [
            ChildUsage(wall: 1, cpu: 9, peakKilobytes: 30, status: 0),
            ChildUsage(wall: 3, cpu: 1, peakKilobytes: 10, status: 0),
            ChildUsage(wall: 2, cpu: 5, peakKilobytes: 20, status: 1),
        ]
        #expect(BenchRunner.median(usages) == ChildUsage(wall: 2, cpu: 5, peakKilobytes: 20, status: 1))
    }

    /// The child's own CPU time counts, the parent's does not; the environment given reaches it; a failing
    /// child's status and message make a `BenchError`.
    @Test func aChildIsMeasuredWithItsEnvironment() throws {
        let shell = "/bin/sh"
        let errors = NSTemporaryDirectory() + "bench-child-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: errors) }
        let busy = try ChildUsage.measure(
            shell, ["-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; exit $EXIT_WITH"], errorPath: errors,
            environment: ["EXIT_WITH": "3"])
        #expect(busy.status == 3)
        #expect(busy.cpu > 0.01)
        #expect(busy.wall >= busy.cpu * 0.5)
        let idle = try ChildUsage.measure(shell, ["-c", "echo complaint >&2; exit 0"], errorPath: errors)
        #expect(idle.status == 0)
        #expect(idle.cpu < busy.cpu)
        #expect(try String(contentsOfFile: errors, encoding: .utf8) == "complaint\n")
    }

    /// Children measured side by side run at once: each waits until the other has started (and gives up after
    /// ten seconds), so one after the other the first would give up and fail. Each one's CPU time is its own, and
    /// the wall time covers the slower one.
    @Test func childrenSideBySideRunAtOnce() throws {
        let folder = NSTemporaryDirectory() + "bench-side-by-side-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func meeting(_ mine: String, _ other: String, busy: Int) -> [String] {
            let wait =
                "i=0; while [ ! -e \(folder)/\(other) ]; do sleep 0.01; i=$((i+1)); [ $i -gt 1000 ] && exit 1; done"
            let work = "j=0; while [ $j -lt \(busy) ]; do j=$((j+1)); done"
            return ["-c", "touch \(folder)/\(mine); \(wait); \(work); exit 0"]
        }
        let measured = try ChildUsage.measureSideBySide(
            [(meeting("a", "b", busy: 200_000), folder + "/a.err"), (meeting("b", "a", busy: 0), folder + "/b.err")],
            executable: "/bin/sh")
        #expect(measured.each.map(\.status) == [0, 0])
        #expect(measured.each[0].cpu > measured.each[1].cpu)
        #expect(measured.wall >= measured.each.map(\.wall).max() ?? .infinity)
    }

    @Test func aChildThatCannotStartIsAnError() {
        #expect(throws: BenchError.self) {
            _ = try ChildUsage.measure("/nonexistent/earshot", [], errorPath: "/dev/null")
        }
        #expect(throws: BenchError.self) {
            _ = try ChildUsage.measureSideBySide(
                [(["-c", "sleep 0.2"], "/dev/null"), (["-c", "sleep 0.2"], "/nonexistent/folder/errors")],
                executable: "/bin/sh")
        }
        #expect(throws: BenchError.self) {
            _ = try BenchRunner(executable: "/nonexistent/earshot", voicesDirectory: nil)
        }
    }
}

import EarshotCLI
import Foundation
import Testing

/// `earshot bench --scaling`: the generated workloads run in child processes, the table, and the fitted exponent.
@Suite("scaling benchmark")
struct ScalingBenchTests {
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

    @Test func aQuickRunPrintsARowPerSizeAndAnExponentPerWorkload() throws {
        try #require(EarshotBinary.path != nil, "the earshot executable is built next to the tests")
        let result = try EarshotBinary.run(["bench", "--scaling", "--quick", "--workload", "stopwatch,swiping"])
        #expect(result.status == 0, "stderr: \(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        let header = try #require(lines.first)
        for column in ["check wall s", "check CPU s", "check MB", "render CPU s", "render MB", "render/raw"] {
            #expect(header.contains(column))
        }
        let rows = lines.filter { $0.hasPrefix("stopwatch ") || $0.hasPrefix("swiping ") }
        // Three sizes each, then one exponent line each.
        #expect(rows.count == 8, "\(result.output)")
        for row in rows.prefix(6) {
            let cells = row.split(separator: " ", omittingEmptySubsequences: true)
            #expect(cells.count == 11, "\(row)")
            #expect(cells.dropFirst().dropLast(2).allSatisfy { Double($0) != nil }, "\(row)")
        }
        #expect(rows.prefix(3).map { $0.split(separator: " ")[1] } == ["10", "20", "40"])
        #expect(lines.contains { $0.hasPrefix("start-up ") })
        // Header, rule, start-up, 6 sizes; the fit's title, header, rule and 2 workloads; nothing else.
        #expect(lines.count == 14, "\(result.output)")
        for fit in rows.suffix(2) {
            let cells = fit.split(separator: " ", omittingEmptySubsequences: true)
            #expect(cells.dropFirst().prefix(4).allSatisfy { Double($0) != nil }, "\(fit)")
        }
    }

    @Test func anUnknownWorkloadIsAUsageError() throws {
        try #require(EarshotBinary.path != nil, "the earshot executable is built next to the tests")
        let result = try EarshotBinary.run(["bench", "--scaling", "--workload", "stopwatch,juggling"])
        #expect(result.status == 64)
        #expect(result.error.contains("no workload 'juggling'"))
        #expect(result.output.isEmpty)
    }

    /// A fixture whose script grows as size² (n² announcements) must be reported near 2 and flagged; the same
    /// script growing as n near 1 and not flagged: the measurement and the fit can tell them apart.
    @Test(arguments: [true, false])
    func aWorkloadIsReportedWithTheExponentOfItsGrowth(squared: Bool) throws {
        let executable = try #require(EarshotBinary.path, "the earshot executable is built next to the tests")
        let fixture = ScalingWorkload(
            name: "fixture", unit: "events", sizes: squared ? [6, 12, 24] : [36, 144, 576], quickSizes: [],
            script: { size in
                let events = squared ? size * size : size
                return """
                    title    "fixture"
                    pattern  announcement-spam
                    variant  before
                    profile  voiceover

                    screen Status
                      text   status "Status"

                    at 0s       focus status
                    at 1s       every 50ms times \(events) announce "Update {count}"
                    wait 2s

                    """
            })
        let speech = try ScenarioInputs.speech(ParsedArguments(command: "bench"), context: CapturedContext().context)
        let result = try BenchCommand.scaling(
            [fixture], sizes: \.sizes, executable: executable, speech: speech)
        let fit = try #require(result.fits.first)
        let exponent = try #require(fit.checkCPU)
        // CPU time of small runs on a busy machine is noisy (a squared fixture has measured 2.2 and 2.8): the two
        // fixtures are told apart by which side of 1.6 they land, and only the squared one must be flagged.
        if squared {
            #expect(exponent > 1.6, "check CPU exponent \(exponent)")
            #expect(fit.superlinear.contains("check CPU"))
        } else {
            #expect(exponent < 1.6, "check CPU exponent \(exponent)")
        }
        let table = BenchCommand.scalingTable(result.rows, fits: result.fits, baseline: result.baseline)
        if squared { #expect(table.contains("SUPERLINEAR: ")) }
    }
}

import EarshotBench
import EarshotScript
import Testing

/// Every generated workload is a valid script at every size the benchmark runs, the largest included: a
/// broken generator would otherwise be found twenty minutes into `bench --scaling`.
@Suite("scaling workloads")
struct ScalingWorkloadTests {
    @Test(arguments: ScalingWorkload.all.map(\.name))
    func everySizeOfTheWorkloadParses(name: String) throws {
        let workload = try #require(ScalingWorkload.all.first { $0.name == name })
        for size in workload.quickSizes + workload.sizes {
            let path = "\(name)-\(size).earshot"
            #expect(throws: Never.self, "\(path)") {
                _ = try ScenarioParser.parse(source: workload.script(size), path: path)
            }
        }
    }

    /// The long typing run is split over lines, and the lines together type exactly `keys` characters.
    @Test func longTypingIsSplitAndTypesEveryKey() throws {
        let script = ScalingWorkload.all.first { $0.name == "typing" }?.script(24_000) ?? ""
        let lines = script.split(separator: "\n").filter { $0.contains(" type \"") }
        #expect(lines.count == 8)
        let typed = lines.map { line in line.split(separator: "\"", omittingEmptySubsequences: false)[1].count }
        #expect(typed.reduce(0, +) == 24_000)
        #expect(lines[1].hasPrefix("at 451.00s"))
    }
}

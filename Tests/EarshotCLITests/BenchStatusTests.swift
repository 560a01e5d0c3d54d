@testable import EarshotBench
@testable import EarshotCLI
import Testing

/// `earshot bench`'s exit status: what a script or a CI job reads of a run's verdicts.
@Suite("bench exit status")
struct BenchStatusTests {
    static func target(_ subject: String, measured: Double, machine: Double? = nil) -> BenchTarget {
        BenchTarget(
            subject: subject, requirement: "CPU ≤ 1.05× raw", measured: measured, direction: .atMost,
            machine: machine, bound: 1.05)
    }

    @Test(arguments: [false, true])
    func aRunThatMissesATargetExitsOneNamingIt(missed: Bool) {
        let captured = CapturedContext()
        let targets = [
            Self.target("render of 24 scripts", measured: 1.02),
            Self.target("check of a 4 h countdown", measured: missed ? 1.051 : 1.05),
        ]
        let status = BenchCommand.status(targets, context: captured.context)
        #expect(status == (missed ? ExitCode.failure : ExitCode.success))
        if missed {
            #expect(
                captured.error
                    == "bench: 1 of 2 targets missed: check of a 4 h countdown (CPU ≤ 1.05× raw)\n")
        } else {
            #expect(captured.error.isEmpty)
        }
        #expect(captured.output.isEmpty)
    }

    /// A machine that could not show a parallel target does not make the run pass: it was not shown.
    @Test func aMissWhereTheMachineFellShortStillFails() {
        let captured = CapturedContext()
        var parallel = Self.target("check of 24 scripts on 2 jobs", measured: 1.3, machine: 1.4)
        parallel.direction = .atLeast
        parallel.bound = 1.7
        parallel.requirement = "≥ 1.7× faster"
        #expect(parallel.machineFellShort)
        #expect(BenchCommand.status([parallel], context: captured.context) == ExitCode.failure)
        #expect(captured.error.contains("check of 24 scripts on 2 jobs (≥ 1.7× faster)"))
    }

    @Test func aRunThatMeasuredNoTargetPasses() {
        let captured = CapturedContext()
        #expect(BenchCommand.status([], context: captured.context) == ExitCode.success)
        #expect(captured.error.isEmpty)
    }
}

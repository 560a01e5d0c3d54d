import EarshotBench
import Foundation
import Testing

/// The benchmark says how much processor time the hypervisor took while it ran.
@Suite struct StolenTimeTests {
    static let before = "cpu  1000 10 200 5000 20 0 30 100 7 0\ncpu0 500 5 100 2500 10 0 15 50 0 0\nintr 1 2\n"
    static let after = "cpu  1040 10 210 5020 20 0 30 150 9 0\ncpu0 520 5 105 2510 10 0 15 75 0 0\n"

    @Test func theStealFieldIsReadAndItsShareOfTheTimeBetweenTwoReadings() throws {
        let earlier = try #require(StolenTime(procStat: Self.before))
        #expect(earlier.stolen == 100)
        #expect(earlier.total == 1000 + 10 + 200 + 5000 + 20 + 0 + 30 + 100)
        let later = try #require(StolenTime(procStat: Self.after))
        // 120 ticks passed (40 user, 10 system, 20 idle, 50 stolen); guest time is inside user time already.
        #expect(later.share(since: earlier) == 50.0 / 120.0)
        #expect(later.share(since: later) == nil)
        #expect(earlier.share(since: later) == nil)
    }

    @Test func aFileWithoutTheLineOrTheFieldGivesNothing() {
        #expect(StolenTime(procStat: "cpu  1000 10 200 5000 20 0 30\n") == nil)
        #expect(StolenTime(procStat: "cpu0 1000 10 200 5000 20 0 30 100\n") == nil)
        #expect(StolenTime(procStat: "cpu  1000 10 200 5000 20 0 30 lots\n") == nil)
        #expect(StolenTime(procStat: "") == nil)
    }

    @Test func aBusyHostIsNamedAsOneAndAQuietOneIsNot() {
        let quiet = StolenTime.line(share: 0.004)
        #expect(quiet == "machine: 0.4 % of processor time went to other virtual machines while this ran\n")
        let busy = StolenTime.line(share: 0.31)
        #expect(busy.hasPrefix("machine: 31.0 % of processor time went to other virtual machines"))
        #expect(busy.contains("the host was busy"))
        #expect(!quiet.contains("busy"))
    }

    @Test func thisMachineIsRead() {
        #if os(Linux)
            #expect(StolenTime.now() != nil)
        #endif
    }
}

import EarshotCore
import Testing

/// Judging a live run around the host's stalls: a miss under a stall is excused, any other miss is judged, and a run
/// with too little left to judge does not count.
@Suite struct TimingAroundStallsTests {
    private func stall(_ from: Double, _ to: Double, processor: Int = 0) -> HostStallWatch.Stall {
        HostStallWatch.Stall(processor: processor, from: .seconds(from), to: .seconds(to))
    }

    private func event(_ kind: LiveTiming.Kind, _ label: String, _ from: Double, _ to: Double, missed: Bool)
        -> LiveTiming.Event
    {
        LiveTiming.Event(
            kind: kind, label: label, from: .seconds(from), to: .seconds(to),
            misses: missed ? ["42 ms (bound 30 ms)"] : [])
    }

    @Test func aMissUnderAStallIsExcusedAndAMissElsewhereIsJudged() {
        let starts = [
            event(.start, "1", 1.00, 1.05, missed: true), event(.start, "2", 2.00, 2.05, missed: false),
            event(.start, "3", 3.00, 3.05, missed: false),
        ]
        let underAStall = LiveTiming(events: starts, host: HostStalls(stalls: [stall(1.02, 1.04)]))
        #expect(underAStall.isClean)
        #expect(underAStall.excused.map(\.event.label) == ["1"])
        #expect(underAStall.judged.map(\.label) == ["2", "3"])
        #expect(underAStall.summary.contains("start of 1 (42 ms (bound 30 ms); stall of 20ms)"))

        let stallElsewhere = LiveTiming(events: starts, host: HostStalls(stalls: [stall(1.06, 1.10)]))
        #expect(!stallElsewhere.isClean)
        #expect(stallElsewhere.misses == ["start of 1: 42 ms (bound 30 ms)"])

        let noStall = LiveTiming(events: starts, host: HostStalls(stalls: []))
        #expect(!noStall.isClean)
        #expect(noStall.excused.isEmpty)
        #expect(noStall.summary == "host: no stall")
    }

    @Test func whatHeldItsBoundsUnderAStallIsJudged() {
        let cuts = [event(.cut, "4", 1.00, 1.01, missed: false), event(.cut, "5", 2.00, 2.01, missed: false)]
        let timing = LiveTiming(events: cuts, host: HostStalls(stalls: [stall(0.5, 2.5)]))
        #expect(timing.judged.count == 2)
        #expect(timing.excused.isEmpty)
        #expect(timing.isClean)
    }

    @Test func aRunWithMoreThanAThirdOfAKindExcusedDoesNotCount() {
        let stalls = HostStalls(stalls: [stall(1.0, 1.1), stall(2.0, 2.1, processor: 1)])
        let oneOfThree = [
            event(.cut, "1", 1.00, 1.01, missed: true), event(.cut, "2", 2.00, 2.01, missed: false),
            event(.cut, "3", 3.00, 3.01, missed: false), event(.start, "1", 0.5, 0.6, missed: false),
        ]
        let fine = LiveTiming(events: oneOfThree, host: stalls)
        #expect(fine.isClean)
        #expect(fine.tooFewJudged.isEmpty)

        var twoOfThree = oneOfThree
        twoOfThree[1].misses = ["silent after 26 ms (bound 15 ms)"]
        let disturbed = LiveTiming(events: twoOfThree, host: stalls)
        #expect(disturbed.misses.isEmpty)
        #expect(!disturbed.isClean)
        #expect(disturbed.tooFewJudged == ["only 1 of 3 cuts judged: the host stalled over the rest"])
    }

    @Test func aRunWhoseOneOpeningIsExcusedDoesNotCount() {
        let events = [
            event(.opening, "the focus read", 0.1, 0.5, missed: true), event(.start, "1", 1, 1.1, missed: false),
        ]
        let stalled = LiveTiming(events: events, host: HostStalls(stalls: [stall(0.3, 0.34)]))
        #expect(stalled.misses.isEmpty)
        #expect(stalled.tooFewJudged == ["only 0 of 1 openings judged: the host stalled over the rest"])
        let unstalled = LiveTiming(events: events, host: HostStalls(stalls: [stall(0.6, 0.64)]))
        #expect(unstalled.misses == ["opening of the focus read: 42 ms (bound 30 ms)"])
    }

    @Test func theLongestOverlappingStallIsTheOneNamed() {
        let host = HostStalls(stalls: [stall(1.0, 1.006), stall(1.01, 1.04, processor: 1), stall(5.0, 5.1)])
        #expect(host.longest(overlapping: .seconds(1.005), .seconds(1.02))?.processor == 1)
        #expect(host.longest(overlapping: .seconds(2), .seconds(3)) == nil)
        #expect(host.summary == "3 stalls, longest 100.0 ms at 5.000s")
    }
}

import EarshotCore
import EarshotSystem
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The watch on a real machine: a processor taken from it by higher real-time work is a stall; work below it is not.
/// It needs the privilege to raise threads to real-time priority (root in CI's real-time stage).
@Suite(.serialized, .enabled(if: HostStallWatch.canRaise, "needs real-time priority (root or CAP_SYS_NICE)"))
struct LiveHostStallWatchTests {
    /// Spins on `processor` at `SCHED_FIFO` `priority` for `length`; returns when it spun, in `clock`'s instants.
    private func spin(on processor: Int, priority: Int32, for length: TimeSpan, clock: RealTimeClock) -> (
        from: Instant, to: Instant
    ) {
        let done = DispatchSemaphore(value: 0)
        let spun = Handoff((from: Instant.zero, to: Instant.zero, raised: false))
        let thread = Thread {
            let raised = HostStallWatch.pin(to: processor) && HostStallWatch.raise(to: priority)
            let from = clock.now
            while clock.now - from < length {}
            spun.value = (from, clock.now, raised)
            done.signal()
        }
        thread.start()
        done.wait()
        let (from, to, raised) = spun.value
        #expect(raised, "the spinner got its processor and priority")
        return (from, to)
    }

    @Test func aProcessorTakenFromTheWatchIsAStall() {
        let clock = RealTimeClock()
        let watch = HostStallWatch(clock: clock)
        #expect(watch.isPrivileged)
        usleep(20_000)
        let spun = spin(on: 0, priority: HostStallWatch.priority + 40, for: .milliseconds(40), clock: clock)
        usleep(20_000)
        let host = HostStalls(stalls: watch.stop())
        let stall = host.longest(overlapping: spun.from, spun.to)
        #expect(stall?.processor == 0, "stalls: \(host.summary)")
        #expect((stall?.length ?? .zero) >= .milliseconds(35), "stalls: \(host.summary)")
    }

    /// A real stall of the host can land during a spin (on a host stalling a fifth of the time, one did). Up to five
    /// spins are made: one without a stall as long as itself passes; a watch that the spin delays shows one every
    /// time.
    @Test func workBelowTheWatchIsNoStall() {
        var longest: [TimeSpan] = []
        for _ in 1...5 {
            let clock = RealTimeClock()
            let watch = HostStallWatch(clock: clock)
            #expect(watch.isPrivileged)
            usleep(20_000)
            let spun = spin(on: 0, priority: HostStallWatch.priority - 30, for: .milliseconds(40), clock: clock)
            usleep(20_000)
            let host = HostStalls(stalls: watch.stop())
            longest.append(host.longest(overlapping: spun.from, spun.to)?.length ?? .zero)
            if longest.last ?? .zero < .milliseconds(30) { break }
        }
        #expect((longest.min() ?? .zero) < .milliseconds(30), "the longest stall during each spin: \(longest)")
    }
}

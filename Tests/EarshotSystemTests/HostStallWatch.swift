import EarshotCore
import EarshotSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Times when a processor was taken away from the whole machine: a virtual machine's host running someone else, an
/// interrupt storm. Real-time bounds cannot hold through them, and they say nothing about Earshot.
///
/// One ticker thread per processor, pinned to it at `SCHED_FIFO` priority 50: above the real-time test stage's
/// round-robin 10, so nothing of Earshot's, the audio daemon's or the recorder's can keep a ticker waiting. Each
/// sleeps 1 ms at a time; a wake-up more than ``threshold`` after the last one is a stall of that processor.
/// Without the privilege to raise the tickers (not root, no `CAP_SYS_NICE`), a slow engine could delay them too, so
/// an unprivileged watch reports no stall at all.
final class HostStallWatch: @unchecked Sendable {
    /// One stall: from the last wake-up before it to the first after it, on one processor.
    struct Stall: Hashable, Sendable {
        var processor: Int
        var from: Instant
        var to: Instant
        var length: TimeSpan { to - from }
    }

    /// A gap between wake-ups longer than this is a stall: a quiet 2-core virtual machine measured at most 3.8 ms
    /// over 15 s at this priority.
    static let threshold = TimeSpan.milliseconds(5)
    static let priority: Int32 = 50

    /// Whether every ticker runs pinned at real-time priority: only then are its stalls the machine's.
    let isPrivileged: Bool
    private let clock: RealTimeClock
    private let tickers = Tickers()

    /// Starts the tickers and waits until each has its processor and priority (or failed to get them).
    init(clock: RealTimeClock) {
        self.clock = clock
        let processors = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        let ready = DispatchSemaphore(value: 0)
        let tickers = tickers
        for processor in 0..<processors {
            tickers.finished.enter()
            let ticker = Thread {
                tickers.setPrivileged(processor, Self.pin(to: processor) && Self.raise(to: Self.priority))
                ready.signal()
                tickers.tick(on: processor)
                tickers.finished.leave()
            }
            ticker.name = "earshot-stall-watch-\(processor)"
            ticker.start()
        }
        for _ in 0..<processors { ready.wait() }
        isPrivileged = tickers.allPrivileged(processors)
    }

    /// Stops the tickers and returns the stalls they saw, in clock instants, earliest first; none when unprivileged.
    func stop() -> [Stall] {
        let gaps = tickers.stop()
        guard isPrivileged else { return [] }
        return gaps.map {
            Stall(
                processor: $0.processor, from: clock.instant(atMonotonic: $0.from),
                to: clock.instant(atMonotonic: $0.to))
        }.sorted { ($0.from, $0.processor) < ($1.from, $1.processor) }
    }

    private typealias SetAffinity = @convention(c) (pid_t, Int, UnsafeRawPointer) -> Int32

    /// Pins the calling thread to `processor` (`sched_setaffinity` is a GNU extension the Glibc module hides).
    static func pin(to processor: Int) -> Bool {
        guard let symbol = dlsym(nil, "sched_setaffinity") else { return false }
        let setAffinity = unsafeBitCast(symbol, to: SetAffinity.self)
        var set = cpu_set_t()
        guard processor / 8 < MemoryLayout<cpu_set_t>.size else { return false }
        withUnsafeMutableBytes(of: &set) { $0[processor / 8] |= UInt8(1 << (processor % 8)) }
        return withUnsafeBytes(of: &set) { bytes in bytes.baseAddress.map { setAffinity(0, bytes.count, $0) } } == 0
    }

    /// Whether this process may raise a thread to real-time priority: tried on a short-lived thread.
    static let canRaise: Bool = {
        let result = Handoff(false)
        let done = DispatchSemaphore(value: 0)
        let probe = Thread {
            result.value = raise(to: 1)
            done.signal()
        }
        probe.start()
        done.wait()
        return result.value
    }()

    /// Raises the calling thread to `SCHED_FIFO` at `priority`.
    static func raise(to priority: Int32) -> Bool {
        var parameter = sched_param(sched_priority: priority)
        return pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameter) == 0
    }
}

/// What the host disturbed in a live run: the stalls a ``HostStallWatch`` saw, asked about stretches of the run.
struct HostStalls: Sendable {
    let stalls: [HostStallWatch.Stall]

    /// The longest stall that overlaps `from...to`, if any.
    func longest(overlapping from: Instant, _ to: Instant) -> HostStallWatch.Stall? {
        stalls.filter { $0.from <= to && $0.to >= from }.max { $0.length < $1.length }
    }

    /// `2 stalls, longest 38.2 ms at 3.214s` or `no stall`.
    var summary: String {
        guard let worst = stalls.max(by: { $0.length < $1.length }) else { return "no stall" }
        let milliseconds = (Double(worst.length.nanoseconds) / 1e5).rounded() / 10
        return "\(stalls.count) stall\(stalls.count == 1 ? "" : "s"), longest \(milliseconds) ms at \(worst.from)"
    }
}

/// The tickers' shared state: whether each got its processor and priority, whether to go on, the gaps seen.
private final class Tickers: @unchecked Sendable {
    private let lock = NSLock()
    private var privileged: [Int: Bool] = [:]
    private var running = true
    private var gaps: [(processor: Int, from: UInt64, to: UInt64)] = []
    let finished = DispatchGroup()

    func setPrivileged(_ processor: Int, _ value: Bool) { lock.withLock { privileged[processor] = value } }

    func allPrivileged(_ count: Int) -> Bool { lock.withLock { (0..<count).allSatisfy { privileged[$0] == true } } }

    /// Records gaps in monotonic nanoseconds: the clock's instant zero moves when a live session restarts it.
    func tick(on processor: Int) {
        let threshold = UInt64(HostStallWatch.threshold.nanoseconds)
        var last = RealTimeClock.monotonicNanoseconds()
        var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
        while lock.withLock({ running }) {
            clock_nanosleep(CLOCK_MONOTONIC, 0, &pause, nil)
            let now = RealTimeClock.monotonicNanoseconds()
            if now - last > threshold { lock.withLock { gaps.append((processor, last, now)) } }
            last = now
        }
    }

    /// Ends every ticker and returns the gaps they saw.
    func stop() -> [(processor: Int, from: UInt64, to: UInt64)] {
        lock.withLock { running = false }
        finished.wait()
        return lock.withLock { gaps }
    }
}

/// A value one thread sets and another reads after waiting for it (a probe's answer, a spinner's times).
final class Handoff<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ initial: Value) { stored = initial }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
